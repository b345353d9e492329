import { Alert, Box, Button, Group, Stack, Text } from '@mantine/core';
import type { PageReading } from '@olympe/contract';

/** `one` names a page's button; the count says `counted` / `many` (blank pages are dropped from the copies, decision 109). */
const WORDS: Record<PageReading, { one: string; counted: string; many: string; color: string }> = {
  read: { one: 'lue', counted: 'lue', many: 'lues', color: 'teal.9' },
  unread: { one: 'non lue', counted: 'non lue', many: 'non lues', color: 'orange.9' },
  blank: { one: 'blanche', counted: 'blanche écartée', many: 'blanches écartées', color: 'gray.7' },
};

/** « 8 pages lues, 1 non lue, 2 blanches écartées » (zero counts left out). */
export function readingCounts(readings: PageReading[]): string {
  const parts = (['read', 'unread', 'blank'] as const).flatMap((status) => {
    const n = readings.filter((r) => r === status).length;
    return n ? [`${n} ${n > 1 ? WORDS[status].many : WORDS[status].counted}`] : [];
  });
  if (parts.length === 0) return '';
  const first = parts[0].replace(/^(\d+) /, (_, n: string) => `${n} page${Number(n) > 1 ? 's' : ''} `);
  return [first, ...parts.slice(1)].join(', ');
}

/**
 * What the scan reader found on each page of the copy (decision 58): a count, then one button a
 * page, coloured and named by its status, that shows the page. A reading that failed says why.
 */
export function ReadingSummary(props: {
  readings: PageReading[] | null;
  readError: string | null;
  current: number;
  onGoto: (page: number) => void;
}) {
  const { readings, readError, current, onGoto } = props;
  if (readError) {
    return (
      <Alert color="orange" title="Lecture automatique impossible">
        {readError} Triez les pages de ce fichier à la main.
      </Alert>
    );
  }
  if (!readings) {
    return (
      <Text size="sm" c="gray.8">
        Les codes de ce fichier n’ont pas encore été lus : triez les pages à la main ou revenez dans quelques minutes.
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Lecture des codes{'\u00a0'}: {readingCounts(readings)}
      </Text>
      {readings.includes('blank') && (
        <Text size="xs" c="gray.8">
          Les pages blanches (versos d’un scan recto verso) ne vont dans aucune copie{'\u00a0'}: décochez «{'\u202f'}Page blanche{'\u202f'}»
          sur une page pour la garder.
        </Text>
      )}
      <Box mah={96} style={{ overflowY: 'auto' }}>
        <Group gap={4} role="group" aria-label="Pages lues, non lues et blanches">
          {readings.map((status, i) => (
            <Button
              key={i}
              size="compact-xs"
              variant={i === current ? 'outline' : 'filled'}
              color={WORDS[status].color}
              aria-current={i === current ? 'page' : undefined}
              aria-label={`Page ${i + 1}\u00a0: ${WORDS[status].one}`}
              onClick={() => onGoto(i)}
            >
              {i + 1}
            </Button>
          ))}
        </Group>
      </Box>
    </Stack>
  );
}
