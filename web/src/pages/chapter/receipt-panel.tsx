import { Alert, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { formatFrenchDate, isoToParisWallClock, parisDateOf, type Receipt, type ReceiptLine } from '@olympe/contract';
import { useReceipt } from '../../api/sessions';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';
import classes from './receipt-panel.module.css';

export const RECEIPT_TITLE = 'Reçu de vos réponses';
export const PRINT_LABEL = 'Imprimer le reçu';

/** An instant of the server to the second, Paris time: « 10 mars 2026 à 10 h 00 min 42 s » (a receipt's clock keeps its seconds). */
export function formatServerTime(iso: string): string {
  const [date, time] = isoToParisWallClock(iso).split('T');
  // Paris is a whole number of minutes from UTC: the seconds are the instant's own.
  return `${formatFrenchDate(date)} à ${clockToTheSecond(time, new Date(iso).getUTCSeconds())}`;
}

/**
 * « 10 h 00 min 42 s », French typography's time to the second, from a wall clock « HH:mm »: a no-break space binds
 * each number to its unit, a plain one lets a phone's narrow column wrap between them rather than cut « m/in »
 * (decision 141).
 */
function clockToTheSecond(time: string, seconds: number): string {
  const [hours, minutes] = time.split(':');
  return `${Number(hours)}\u00a0h ${minutes}\u00a0min ${String(seconds).padStart(2, '0')}\u00a0s`;
}

/** A save's time on the receipt: « 18 h 23 min 13 s » on the day the test ended, the full date otherwise. */
export function formatSaveTime(iso: string, endedAt: string | null): string {
  const full = formatServerTime(iso);
  return endedAt && parisDateOf(iso) === parisDateOf(endedAt) ? full.split(' à ')[1] : full;
}

/** What the receipt shows for an answer: the number typed, « copie PDF », or that nothing was saved. */
export function receiptAnswerText(line: Pick<ReceiptLine, 'answer' | 'answerFormat'>): string {
  if (line.answer === null || line.answer === '') return 'aucune réponse';
  return line.answerFormat === 'pdf' ? 'copie PDF' : line.answer;
}

/**
 * The end of a timed test (time up or finished): every exercise with the answer the server holds
 * and when it arrived, and the receipt code staff can recompute (decision 44). It stays on the
 * chapter page and prints alone (receipt-panel.module.css).
 */
export function ReceiptPanel({ chapterId }: { chapterId: string }) {
  const query = useReceipt(chapterId);
  if (query.isPending) return <Loader role="status" aria-label="Chargement du reçu" />;
  if (query.isError) return <Alert color="red">Le reçu n’a pas pu être chargé. Rechargez la page pour réessayer.</Alert>;
  return <ReceiptView receipt={query.data} />;
}

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="receipt-title" className={classes.receipt} data-testid="receipt">
      <Stack gap="sm">
        <Title order={2} size="h3" id="receipt-title">
          {RECEIPT_TITLE}
        </Title>
        <Text>
          {receipt.chapter.title} — {receipt.user.name}
        </Text>
        {receipt.endedAt && (
          <Text size="sm">
            {receipt.finished ? 'Épreuve terminée par vous le ' : 'Épreuve terminée le '}
            {formatServerTime(receipt.endedAt)} (heure de Paris).
          </Text>
        )}
        {/* Fixed columns that wrap between words: a phone's 375 px holds the three without scrolling sideways. */}
        <Table aria-label={RECEIPT_TITLE} withTableBorder layout="fixed" horizontalSpacing="xs" lang="fr" style={WRAP_AT_SPACES}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w="40%">
                Exercice
              </Table.Th>
              <Table.Th scope="col" w="30%">
                Réponse
              </Table.Th>
              <Table.Th scope="col" w="30%">
                Reçue à
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {receipt.lines.map((line) => (
              <Table.Tr key={line.exercise}>
                <Table.Th scope="row" fw={400}>
                  {line.position + 1}. {line.title}
                </Table.Th>
                <Table.Td className={classes.answer}>{receiptAnswerText(line)}</Table.Td>
                <Table.Td>{line.timestamp ? formatSaveTime(line.timestamp, receipt.endedAt) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group gap="xs" align="baseline">
          <Text fw={700}>Code du reçu :</Text>
          <Text className={classes.code} fw={700} data-testid="receipt-code">
            {receipt.code}
          </Text>
        </Group>
        <Text size="sm">
          Notez ou imprimez ce code : il permet de vérifier plus tard que vos réponses n’ont pas changé depuis la fin de l’épreuve.
        </Text>
        <Text size="sm" c="gray.7">
          Reçu établi le {formatServerTime(receipt.generatedAt)} (heure de Paris).
        </Text>
        <Group className={classes.noPrint}>
          <Button variant="default" leftSection={<IconPrinter size={16} aria-hidden="true" />} onClick={() => window.print()}>
            {PRINT_LABEL}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
