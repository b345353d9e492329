import { useDeferredValue, useMemo, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { useCenterOverview } from '../../api/centers';
import { VirtualTable, type VirtualColumn } from '../../components/VirtualTable';
import { downloadCsv } from '../../lib/csv';
import { useSession } from '../../session/session-context';
import { AnswerSheetsButton } from '../chapter/paper/answer-sheets-button';
import { PoleCenters } from './pole-centers';
import { CenterDayTable } from './center-day-table';
import {
  filterRegistrations,
  flattenOverview,
  gradeText,
  registrationsCsvName,
  registrationsCsvRows,
  STATUS_FILTERS,
  type RegistrationRow,
  type StatusFilter,
} from './registrations';
import { PageHeading } from '../../components/page-heading';

/** docs/product.md#spec-9: the registrations table is the window height minus 220 px. */
const TABLE_HEIGHT = 'max(320px, calc(100vh - 220px))';

// Stable functions: the table caches sort keys per function.
const byCenter = (r: RegistrationRow) => r.center?.name ?? null;
const byLastName = (r: RegistrationRow) => r.user.lastName;
const byFirstName = (r: RegistrationRow) => r.user.firstName;
const byStatus = (r: RegistrationRow) => r.status;

const columns: VirtualColumn<RegistrationRow>[] = [
  {
    key: 'center',
    header: 'Centre',
    width: '19%',
    cell: (r) => r.center?.name ?? '—',
    sortValue: byCenter,
    fullText: (r) => r.center?.name ?? '',
  },
  { key: 'status', header: 'Statut', width: 110, cell: (r) => r.status, sortValue: byStatus },
  {
    key: 'lastName',
    header: 'Nom',
    width: '14%',
    cell: (r) => r.user.lastName,
    sortValue: byLastName,
    fullText: (r) => r.user.lastName ?? '',
  },
  {
    key: 'firstName',
    header: 'Prénom',
    width: '12%',
    cell: (r) => r.user.firstName,
    sortValue: byFirstName,
    fullText: (r) => r.user.firstName ?? '',
  },
  { key: 'email', header: 'E-mail', width: '19%', cell: (r) => r.user.email, fullText: (r) => r.user.email },
  { key: 'grade', header: 'Classe', width: 80, cell: (r) => gradeText(r.user.grade) },
  { key: 'school', header: 'Établissement', cell: (r) => r.user.institution?.name ?? '', fullText: (r) => r.user.institution?.name ?? '' },
];

/** docs/product.md#spec-2 "Aperçu du Chapitre" (/registrations/{id}, admins): participants by centre, search, filter, count, CSV. */
export function RegistrationsPage() {
  const { id = '' } = useParams();
  const { chapters } = useSession();
  const title = chapters.find((c) => c._id === id)?.title ?? '';
  // docs/product.md#spec-8: a failed fetch is logged in French (OVERVIEW_ERROR_LOG).
  const query = useCenterOverview(id);
  const rows = useMemo(() => (query.data ? flattenOverview(query.data) : []), [query.data]);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const deferredSearch = useDeferredValue(search);
  const shown = useMemo(() => filterRegistrations(rows, deferredSearch, status), [rows, deferredSearch, status]);

  return (
    <Stack>
      <PageHeading>Aperçu du Chapitre</PageHeading>
      {title && <Text c="dimmed">{title}</Text>}
      {query.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label="Chargement des inscriptions" />
        </Center>
      ) : query.isError ? (
        <Alert color="red">Impossible de charger les inscriptions de ce chapitre.</Alert>
      ) : (
        <>
          <CenterDayTable chapterId={id} chapterTitle={title || id} overview={query.data} />
          <PoleCenters chapterId={id} />
          <CenterSheets chapterId={id} centers={query.data.members.map((g) => g.institution)} />
          <Group align="end">
            <TextInput
              label="Rechercher"
              placeholder="Nom, prénom, e-mail, établissement ou centre"
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              miw={320}
            />
            <Select
              label="Statut"
              data={STATUS_FILTERS}
              value={status}
              onChange={(v) => setStatus((v as StatusFilter | null) ?? 'all')}
              allowDeselect={false}
              w={180}
            />
            <Text role="status" aria-live="polite">
              {shown.length} / {rows.length} participants
            </Text>
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              onClick={() => downloadCsv(registrationsCsvName(title || id), registrationsCsvRows(shown))}
            >
              Exporter en CSV
            </Button>
          </Group>
          <VirtualTable
            rows={shown}
            columns={columns}
            rowKey={(r) => r.key}
            height={TABLE_HEIGHT}
            label="Participants par centre"
            emptyText="Aucun participant."
            // Below this width the table scrolls sideways: the school column has no fixed width and had 0 px at 375 px.
            minWidth={860}
          />
        </>
      )}
    </Stack>
  );
}

/** Admins download a centre's personalised answer sheets (QR codes) or the blank sheet. */
function CenterSheets({ chapterId, centers }: { chapterId: string; centers: Array<{ _id: string; name: string }> }) {
  const [centerId, setCenterId] = useState<string | null>(null);
  const chosen = centerId ?? centers[0]?._id ?? null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="sheets-title">
      <Title order={2} size="h4" id="sheets-title">
        Feuilles réponses à QR code
      </Title>
      {centers.length > 0 ? (
        <Select
          label="Centre"
          data={centers.map((c) => ({ value: c._id, label: c.name }))}
          value={chosen}
          onChange={setCenterId}
          allowDeselect={false}
          searchable
          w={360}
        />
      ) : (
        <Text size="sm">Aucun centre n’a encore d’inscrit : seule la feuille vierge est disponible.</Text>
      )}
      <AnswerSheetsButton key={chosen ?? 'none'} chapterId={chapterId} institutionId={chosen} />
    </Stack>
  );
}
