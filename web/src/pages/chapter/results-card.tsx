import { Card, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatTotal, type ResultsCard } from '@olympe/contract';
import { frenchNumber } from '@olympe/contract/typography';
import { RichText } from './rich-text';

/** One exercise's grade as a pupil reads it: « 2,5 / 4 », « Excusé (X) » or « Non noté ». */
export function gradeText(e: ResultsCard['exercises'][number]): string {
  if (e.excused) return 'Excusé (X)';
  if (e.grade === null) return 'Non noté';
  return formatTotal(e.grade, e.maxPoints);
}

/** « 2e sur 1 234 », with the French ordinal (« 1er »). */
export function rankText(rank: number, participants: number): string {
  return `${rank === 1 ? '1er' : `${rank}e`} sur ${frenchNumber(participants)}`;
}

/**
 * Decision 70: a pupil's results card (their chapter page, and the admin's preview of it): total out
 * of the maximum, rank and percentile when shown, the qualification, then each exercise with its
 * grade and comment. A list of rows rather than a wide table, so that it reads on a phone.
 */
export function ResultsCardView({ card, heading = 'Vos résultats' }: { card: ResultsCard; heading?: string }) {
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label={heading}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {heading}
        </Title>
        <Group gap="lg" wrap="wrap" align="baseline">
          <Text size="xl" fw={700}>
            Total : {formatTotal(card.total, card.maxTotal)}
          </Text>
          {card.rank !== undefined && card.participants !== undefined && <Text>Rang : {rankText(card.rank, card.participants)}</Text>}
          {card.percentile !== undefined && <Text>Centile : {card.percentile}</Text>}
        </Group>
        {card.qualified !== undefined &&
          (card.qualified ? (
            <Paper withBorder p="xs" radius="sm" style={{ borderColor: 'var(--mantine-color-green-7)', borderWidth: 2 }}>
              {/* Default text colour on white: the green border carries the good news (axe measured green text short of AA here). */}
              <Text fw={700}>{card.qualificationText}</Text>
            </Paper>
          ) : (
            <Text c="gray.8">Pas de qualification pour le tour suivant.</Text>
          ))}
        <Table verticalSpacing="xs" aria-label="Notes par exercice">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Exercice</Table.Th>
              <Table.Th ta="right">Note</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {card.exercises.map((e) => (
              <Table.Tr key={e._id}>
                <Table.Td>
                  <Text fw={500}>{e.title}</Text>
                  {/* Decision 141: the corrector's comment drawn like the statements (Markdown, « $n^2 + 1$ »), not raw. */}
                  {e.comment && (
                    <Stack gap={2}>
                      <Text size="sm" c="gray.8">
                        Commentaire :
                      </Text>
                      <RichText content={e.comment} label={`Commentaire : ${e.title}`} />
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                  {gradeText(e)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
