import { Alert, Anchor, List, ScrollArea, Select, Stack, Table, Text } from '@mantine/core';
import { formatFrenchDate, formatPoints, GRADE_LABELS, type Grade, type PublishedSelection } from '@olympe/contract';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client';
import { downloadSchoolQualifiedXlsx, usePublishedSelections, useSchoolQualified } from '../../api/qualifications';
import { DownloadButton } from '../../components/download-button';
import { PageHeading } from '../../components/page-heading';
import { TitledLoader } from '../../components/TitledLoader';
import { paths } from '../../config/paths';

const TITLE = 'Qualifiés de l’établissement';

const errorText = (error: unknown, fallback: string) => (isApiError(error) && error.message ? error.message : fallback);

/** The next round as the school reads it: « le tour 2 — 13 mars 2027, Lycée du Parc ». */
function nextRoundText(s: PublishedSelection): string {
  const when = [s.nextRoundDate ? formatFrenchDate(s.nextRoundDate) : '', s.nextRoundPlace].filter(Boolean).join(', ');
  return when ? `${s.nextRoundTitle} — ${when}` : s.nextRoundTitle;
}

/** One selection's qualified pupils of the caller's school (an admin names the school with ?institution=). */
function QualifiedTable({ selection, institution }: { selection: PublishedSelection; institution: string | null }) {
  const query = useSchoolQualified(selection._id, institution);
  if (query.isPending) return <Text role="status">Chargement des qualifiés…</Text>;
  if (query.isError) return <Alert color="red">{errorText(query.error, 'Impossible de charger les qualifiés.')}</Alert>;
  const pupils = [...query.data].sort(
    (a, b) => (a.lastName ?? '').localeCompare(b.lastName ?? '', 'fr') || (a.firstName ?? '').localeCompare(b.firstName ?? '', 'fr'),
  );
  return (
    <Stack gap="sm" component="section" aria-label={`Qualifiés : ${selection.title}`}>
      <Text>Tour suivant : {nextRoundText(selection)}</Text>
      {pupils.length === 0 ? (
        <Text>Aucun élève de votre établissement n’est qualifié.</Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped aria-label="Élèves qualifiés de l’établissement">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Élève</Table.Th>
                <Table.Th>Classe</Table.Th>
                <Table.Th>Catégorie</Table.Th>
                <Table.Th ta="right">Score</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {pupils.map((p) => (
                <Table.Tr key={p._id}>
                  <Table.Td>
                    {p.lastName} {p.firstName}
                  </Table.Td>
                  <Table.Td>{p.grade && p.grade in GRADE_LABELS ? GRADE_LABELS[p.grade as Grade] : (p.grade ?? '')}</Table.Td>
                  <Table.Td>{p.category}</Table.Td>
                  <Table.Td ta="right">{formatPoints(p.score)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      <Text size="sm" c="gray.8">
        {pupils.length} élève{pupils.length > 1 ? 's' : ''} qualifié{pupils.length > 1 ? 's' : ''}
      </Text>
      <DownloadButton label="Exporter en XLSX" run={() => downloadSchoolQualifiedXlsx(selection._id, selection.title, institution)} />
    </Stack>
  );
}

/**
 * docs/product.md#selections: school staff see, for each published selection, their pupils who are qualified, and
 * download the list (decision 157). Without an id, the published selections to choose from.
 */
export function SelectionSchoolPage() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const institution = search.get('institution');
  const navigate = useNavigate();
  const query = usePublishedSelections();
  if (query.isPending) return <TitledLoader title={TITLE} label="Chargement des sélections" />;
  if (query.isError) {
    return (
      <Stack>
        <PageHeading>{TITLE}</PageHeading>
        <Alert color="red">{errorText(query.error, 'Impossible de charger les sélections.')}</Alert>
      </Stack>
    );
  }
  const suffix = institution ? `?institution=${encodeURIComponent(institution)}` : '';
  const selection = query.data.find((s) => s._id === id);
  return (
    <Stack>
      <PageHeading>{TITLE}</PageHeading>
      {query.data.length === 0 ? (
        <Text>Aucune sélection n’est publiée pour le moment.</Text>
      ) : (
        <Select
          label="Sélection"
          placeholder="Choisissez une sélection"
          data={query.data.map((s) => ({ value: s._id, label: s.title }))}
          value={selection?._id ?? null}
          onChange={(value) => value && navigate(`${paths.selectionSchool(value)}${suffix}`)}
          allowDeselect={false}
          maw={480}
        />
      )}
      {id && !selection && query.data.length > 0 && <Alert color="orange">Cette sélection n’est pas publiée.</Alert>}
      {!id && query.data.length > 0 && (
        <List>
          {query.data.map((s) => (
            <List.Item key={s._id}>
              <Anchor component={Link} to={`${paths.selectionSchool(s._id)}${suffix}`}>
                {s.title}
              </Anchor>
            </List.Item>
          ))}
        </List>
      )}
      {selection && <QualifiedTable selection={selection} institution={institution} />}
    </Stack>
  );
}
