import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { formatSitting, GRADE_LABELS, roomText, type Center } from '@olympe/contract';
import { useCenter } from '../../api/centers';
import { centerFileUrl, downloadCenterFile, useSaveAttendance } from '../../api/exam-day';
import { PageHeading } from '../../components/page-heading';
import { downloadCsv } from '../../lib/csv';
import { useSession } from '../../session/session-context';
import { attendanceBody, attendanceText, initialTicks, placesText, registeredCsvRows, type Ticks } from './center-day';
import { QrScanner } from './qr-scanner';
import './center-day.css';

/**
 * Decision 59, the teacher's centre page (/centre/{chapterId}): the registered pupils with the count
 * against places, printable, as CSV or XLSX; the convocations and the attendance sheet as PDF; and
 * the attendance, ticked or scanned from the convocations' QR codes.
 */
export function CenterDayPage() {
  const { id = '' } = useParams();
  const { chapters } = useSession();
  const title = chapters.find((c) => c._id === id)?.title ?? '';
  const query = useCenter(id);
  if (query.isPending) return <Loader aria-label="Chargement du centre" />;
  if (query.isError) return <Alert color="red">Impossible de charger le centre de votre établissement.</Alert>;
  return <CenterDay key={query.dataUpdatedAt} chapterId={id} chapterTitle={title} center={query.data} />;
}

function CenterDay({ chapterId, chapterTitle, center }: { chapterId: string; chapterTitle: string; center: Center }) {
  const [ticks, setTicks] = useState<Ticks>(() => initialTicks(center.members));
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [scanned, setScanned] = useState<string | null>(null);
  const save = useSaveAttendance(chapterId);
  const members = center.members;
  const outside = members.filter((m) => m.institution?._id !== center.institution._id).length;
  const presentCount = useMemo(() => members.filter((m) => ticks[m._id]).length, [members, ticks]);
  const d = center.details;
  const attendance = attendanceText(members.length, presentCount, d.sittingAt);

  const download = async (kind: keyof typeof centerFileUrl, filename: string) => {
    setFileError(null);
    setBusy(kind);
    try {
      await downloadCenterFile(centerFileUrl[kind](chapterId), filename);
    } catch (error) {
      setFileError((error as Error).message);
    } finally {
      setBusy(null);
    }
  };
  const onScan = (userId: string) => {
    const pupil = members.find((m) => m._id === userId);
    if (!pupil) {
      setScanned('Cette convocation n’est pas celle d’un élève inscrit dans votre centre.');
      return;
    }
    setTicks((t) => ({ ...t, [userId]: true }));
    setScanned(`${pupil.firstName ?? ''} ${pupil.lastName ?? ''} : présent(e).`.trim());
  };

  return (
    <Stack>
      <PageHeading>Jour de l’épreuve : {center.institution.name}</PageHeading>
      <Text fw={600}>{chapterTitle}</Text>
      <Text>
        {d.sittingAt ? `Le ${formatSitting(d.sittingAt)}` : 'Date à préciser'} — {d.address}
        {d.room ? `, ${roomText(d.room)}` : ''}
      </Text>
      <Text aria-live="polite">
        {placesText(members.length, outside, center.nb_places)}.{attendance ? ` ${attendance}` : ''}
      </Text>
      <Group className="center-day-no-print">
        <Button loading={busy === 'convocation'} onClick={() => download('convocation', 'convocations.pdf')} disabled={members.length === 0}>
          Convocations (PDF)
        </Button>
        <Button loading={busy === 'attendanceSheet'} onClick={() => download('attendanceSheet', 'feuille-emargement.pdf')}>
          Feuille d’émargement (PDF)
        </Button>
        <Button variant="light" onClick={() => downloadCsv(`inscrits-${center.institution.name}.csv`, registeredCsvRows(members))}>
          Liste des inscrits (CSV)
        </Button>
        <Button variant="light" loading={busy === 'registeredXlsx'} onClick={() => download('registeredXlsx', `inscrits-${center.institution.name}.xlsx`)}>
          Liste des inscrits (XLSX)
        </Button>
        <Button variant="default" onClick={() => window.print()}>
          Imprimer la liste
        </Button>
      </Group>
      {fileError && (
        <Alert color="red" role="alert" className="center-day-no-print">
          {fileError}
        </Alert>
      )}
      <Title order={2} size="h3">
        Présences
      </Title>
      <Text size="sm" className="center-day-no-print">
        Cochez les élèves présents, ou scannez le QR code de leur convocation ; puis enregistrez : les élèves non cochés sont notés absents.
      </Text>
      <div className="center-day-no-print">
        <QrScanner chapterId={chapterId} onScan={onScan} />
        {scanned && (
          <Text size="sm" role="status">
            {scanned}
          </Text>
        )}
      </div>
      {members.length === 0 ? (
        <Text>Aucun élève n’est inscrit dans votre centre pour l’instant.</Text>
      ) : (
        <Table striped className="center-day-table" aria-label="Élèves inscrits dans votre centre">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Nom</Table.Th>
              <Table.Th>Prénom</Table.Th>
              <Table.Th>Classe</Table.Th>
              <Table.Th>Établissement</Table.Th>
              <Table.Th>Présent</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => (
              <Table.Tr key={m._id}>
                <Table.Td>{m.lastName}</Table.Td>
                <Table.Td>{m.firstName}</Table.Td>
                <Table.Td>{m.grade ? GRADE_LABELS[m.grade] : ''}</Table.Td>
                <Table.Td>{m.institution?.name ?? ''}</Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Présent : ${m.firstName ?? ''} ${m.lastName ?? ''}`.trim()}
                    checked={ticks[m._id] === true}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      setTicks((t) => ({ ...t, [m._id]: checked }));
                    }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {members.length > 0 && (
        <Button className="center-day-no-print" w="fit-content" loading={save.isPending} onClick={() => save.mutate(attendanceBody(members, ticks))}>
          Enregistrer les présences
        </Button>
      )}
    </Stack>
  );
}
