import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { centerDayRows, MAIL_KIND_LABELS, type CenterOverview } from '@olympe/contract';
import { centerDayXlsxUrl, downloadCenterFile, useMailStats } from '../../api/exam-day';
import { downloadCsv } from '../../lib/csv';
import { centerDayCsvName, centerDayCsvRows } from './registrations';
import { CentreDayRows } from './centre-day-rows';

/**
 * Decision 81: the exam day per centre — registered, present, absent, copies received, pages sorted —
 * and which centres have not answered or not uploaded yet; with the notification mails' counts.
 * The table downloads as CSV (built here, like the page's other CSV) and as XLSX (from the server).
 */
export function CenterDayTable({
  chapterId,
  chapterTitle,
  overview,
}: {
  chapterId: string;
  chapterTitle: string;
  overview: CenterOverview;
}) {
  const mail = useMailStats();
  const centres = centerDayRows(overview);
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const downloadXlsx = async () => {
    setFileError(null);
    setBusy(true);
    try {
      await downloadCenterFile(centerDayXlsxUrl(chapterId), `${centerDayCsvName(chapterTitle).replace(/\.csv$/, '')}.xlsx`);
    } catch (error) {
      setFileError((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="center-day-title">
      <Title order={2} size="h4" id="center-day-title">
        Jour de l’épreuve par centre
      </Title>
      {centres.length === 0 ? (
        <Text size="sm">Aucun centre n’a encore d’inscrit.</Text>
      ) : (
        <>
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              onClick={() => downloadCsv(centerDayCsvName(chapterTitle), centerDayCsvRows(centres))}
            >
              Tableau des centres (CSV)
            </Button>
            <Button
              variant="light"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              loading={busy}
              onClick={() => void downloadXlsx()}
            >
              Tableau des centres (XLSX)
            </Button>
          </Group>
          {fileError && (
            <Alert color="red" role="alert">
              {fileError}
            </Alert>
          )}
          <CentreDayRows centres={centres} />
        </>
      )}
      {mail.data && (
        <Text size="sm" role="status">
          E-mails de notification : {mail.data.total.sent} envoyé{mail.data.total.sent > 1 ? 's' : ''}, {mail.data.total.pending} en
          attente, {mail.data.total.failed} en échec, {mail.data.total.skipped} non envoyé{mail.data.total.skipped > 1 ? 's' : ''}{' '}
          (désabonnés).
          {mail.data.kinds.length > 0 &&
            ` Détail : ${mail.data.kinds.map((k) => `${MAIL_KIND_LABELS[k.kind] ?? k.kind} ${k.sent}`).join(' ; ')}.`}
        </Text>
      )}
    </Stack>
  );
}
