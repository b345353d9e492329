import { useMemo, useState } from 'react';
import { Alert, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { formatSitting, roomText, type Center } from '@olympe/contract';
import { useCenter } from '../../api/centers';
import { useSaveAttendance } from '../../api/exam-day';
import { PageHeading } from '../../components/page-heading';
import { useSession } from '../../session/session-context';
import { attendanceBody, attendanceText, initialTicks, placesText, type Ticks } from './center-day';
import { QrScanner } from './qr-scanner';
import { AttendanceTable } from './attendance-table';
import { CenterFiles } from './center-files';
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
  const [scanned, setScanned] = useState<string | null>(null);
  const save = useSaveAttendance(chapterId);
  const members = center.members;
  const outside = members.filter((m) => m.institution?._id !== center.institution._id).length;
  const presentCount = useMemo(() => members.filter((m) => ticks[m._id]).length, [members, ticks]);
  const d = center.details;
  const attendance = attendanceText(members.length, presentCount, d.sittingAt);

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
      <CenterFiles chapterId={chapterId} center={center} />
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
        <AttendanceTable members={members} ticks={ticks} onTick={(userId, present) => setTicks((t) => ({ ...t, [userId]: present }))} />
      )}
      {members.length > 0 && (
        <Button
          className="center-day-no-print"
          w="fit-content"
          loading={save.isPending}
          onClick={() => save.mutate(attendanceBody(members, ticks))}
        >
          Enregistrer les présences
        </Button>
      )}
    </Stack>
  );
}
