import { useState } from 'react';
import { Alert, Button, Group } from '@mantine/core';
import type { Center } from '@olympe/contract';
import { centerFileUrl, downloadCenterFile } from '../../api/exam-day';
import { downloadCsv } from '../../lib/csv';
import { registeredCsvRows } from './center-day';

/** The centre's files: convocations and attendance sheet (PDF), the registered pupils (CSV, XLSX), the print. */
export function CenterFiles({ chapterId, center }: { chapterId: string; center: Center }) {
  const members = center.members;
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
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

  return (
    <>
      <Group className="center-day-no-print">
        <Button
          loading={busy === 'convocation'}
          onClick={() => download('convocation', 'convocations.pdf')}
          disabled={members.length === 0}
        >
          Convocations (PDF)
        </Button>
        <Button loading={busy === 'attendanceSheet'} onClick={() => download('attendanceSheet', 'feuille-emargement.pdf')}>
          Feuille d’émargement (PDF)
        </Button>
        <Button variant="light" onClick={() => downloadCsv(`inscrits-${center.institution.name}.csv`, registeredCsvRows(members))}>
          Liste des inscrits (CSV)
        </Button>
        <Button
          variant="light"
          loading={busy === 'registeredXlsx'}
          onClick={() => download('registeredXlsx', `inscrits-${center.institution.name}.xlsx`)}
        >
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
    </>
  );
}
