import { useState } from 'react';
import { Anchor, Button, Group } from '@mantine/core';
import { IconDownload, IconRobot } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAutoCorrection, useFetchWholeTable, useUnlabeledCount } from '../../api/grading';
import { downloadChapterGradesXlsx, useAutoCorrectionCount } from '../../api/results';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';
import { DownloadButton } from '../../components/download-button';
import { sortRows } from '../../components/VirtualTable';
import { paths } from '../../config/paths';
import { downloadCsv } from '../../lib/csv';
import { useSession } from '../../session/session-context';
import type { GradingTable } from '@olympe/contract';
import { buildRows, resultsCsvRows, resultsFileName, type GradingRow } from './grading-table';

// Stable function: sortRows caches sort keys per function (the CSV export sorts by last name).
const byLastName = (r: GradingRow) => r.lastName;

/** « 1 234 copies seront notées » (decision 69); the grades given by a person are never touched. */
export function autoCorrectionMessage(count: number): string {
  if (count === 0) return 'Aucune copie ne sera notée : toutes les réponses numériques sont déjà notées.';
  return `${countOf(count, 'copie')} ${count > 1 ? 'seront notées' : 'sera notée'} (réponses numériques ; les notes données par un correcteur ne changent pas).`;
}

/** The export needs every pupil: the whole table, asked for on click. */
function useExportCsv(chapterId: string) {
  const fetchWholeTable = useFetchWholeTable(chapterId);
  const [exporting, setExporting] = useState(false);
  async function exportCsv() {
    setExporting(true);
    try {
      const whole = await fetchWholeTable();
      downloadCsv(
        resultsFileName(whole.chapter.title),
        resultsCsvRows(sortRows(buildRows(whole), byLastName, 'asc'), whole.exercises, whole.maxTotal),
      );
    } catch (error) {
      console.error(error);
    } finally {
      setExporting(false);
    }
  }
  return { exporting, exportCsv };
}

/** Under the search: the sorting and review links; for an admin, the exports and the automatic correction. */
export function GradingActions({ chapterId, chapter }: { chapterId: string; chapter: GradingTable['chapter'] }) {
  const { roles } = useSession();
  const unlabeled = useUnlabeledCount(chapterId, chapter.offline);
  const auto = useAutoCorrection(chapterId);

  // Decision 69: the run is confirmed with the number of copies it will grade.
  const [confirmAuto, setConfirmAuto] = useState(false);
  const autoCount = useAutoCorrectionCount(chapterId, confirmAuto);
  const { exporting, exportCsv } = useExportCsv(chapterId);

  return (
    <>
      <Group gap="sm">
        {chapter.offline && (
          <Anchor component={Link} to={paths.sorting(chapterId)}>
            Triage : {unlabeled.data ?? '…'} fichiers
          </Anchor>
        )}
        <Anchor component={Link} to={paths.overview(chapterId)}>
          Revue
        </Anchor>
        {roles.isAdmin && (
          <>
            <Button variant="light" leftSection={<IconDownload size={16} aria-hidden="true" />} loading={exporting} onClick={exportCsv}>
              Exporter en CSV
            </Button>
            <DownloadButton label="Exporter en XLSX" run={() => downloadChapterGradesXlsx(chapterId, chapter.title)} />
            <Button
              variant="light"
              leftSection={<IconRobot size={16} aria-hidden="true" />}
              loading={auto.isPending}
              onClick={() => setConfirmAuto(true)}
            >
              Correction automatique
            </Button>
          </>
        )}
      </Group>
      <ConfirmDialog
        opened={confirmAuto}
        title="Lancer la correction automatique ?"
        message={autoCount.data === undefined ? null : autoCorrectionMessage(autoCount.data)}
        confirmLabel="Lancer la correction"
        loading={auto.isPending}
        onCancel={() => setConfirmAuto(false)}
        onConfirm={() => {
          setConfirmAuto(false);
          auto.mutate();
        }}
      />
    </>
  );
}
