import { useState } from 'react';
import { Anchor, Button, Group, NumberInput, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { SHEET_SPARE_DEFAULT, SHEET_SPARE_MAX, SHEETS_BLANK_LABEL, SHEETS_DOWNLOAD_LABEL } from '@olympe/contract';
import { fetchSheetsLink, startDownload } from '../../../api/sheets';

export const SPARE_LABEL = 'Pages de réserve par exercice';
export const SHEETS_HELP_TEXT =
  'Une feuille par élève inscrit : page de garde et pages réponses avec un QR code. Une fois scannées et déposées, les copies se trient seules.';

/**
 * Answer sheets with QR codes for a paper chapter: the personalised PDF of a centre's registered
 * pupils, and the blank sheet (name written by hand). Staff of the school leave `institutionId`
 * out (the server takes theirs); an admin names the centre. Errors (no pupil registered...) are
 * shown by the API client's notification.
 */
export function AnswerSheetsButton({ chapterId, institutionId }: { chapterId: string; institutionId?: string | null }) {
  const [spare, setSpare] = useState<number>(SHEET_SPARE_DEFAULT);
  const [busy, setBusy] = useState<'pupils' | 'blank' | null>(null);

  async function download(kind: 'pupils' | 'blank') {
    setBusy(kind);
    try {
      const url = await fetchSheetsLink(
        chapterId,
        kind === 'blank' ? { blank: '1', spare } : { spare, ...(institutionId ? { institution: institutionId } : {}) },
      );
      startDownload(url);
    } catch {
      // The client already showed the server's message.
    } finally {
      setBusy(null);
    }
  }

  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Button
        leftSection={<IconDownload size={16} aria-hidden />}
        loading={busy === 'pupils'}
        disabled={busy !== null}
        onClick={() => download('pupils')}
      >
        {SHEETS_DOWNLOAD_LABEL}
      </Button>
      <NumberInput
        label={SPARE_LABEL}
        value={spare}
        onChange={(v) => setSpare(typeof v === 'number' ? Math.max(0, Math.min(SHEET_SPARE_MAX, Math.round(v))) : SHEET_SPARE_DEFAULT)}
        min={0}
        max={SHEET_SPARE_MAX}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="strict"
        w={190}
      />
      <Anchor component="button" type="button" onClick={() => download('blank')} disabled={busy !== null} aria-busy={busy === 'blank'}>
        {SHEETS_BLANK_LABEL}
      </Anchor>
      <Text size="sm" c="dimmed" w="100%">
        {SHEETS_HELP_TEXT}
      </Text>
    </Group>
  );
}
