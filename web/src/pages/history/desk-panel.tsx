import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import {
  formatGrade,
  formatParisDateTime,
  formatPoints,
  type Desk,
  type DeskRole,
  type DoubleStatus,
  type GradingView,
} from '@olympe/contract';
import { MathText } from '../../components/MathText';
import { paths } from '../../config/paths';
import { personName } from './desk';

/** What the corrector's save does on this copy (decision 63, double correction). */
export const ROLE_TEXT: Record<DeskRole, string> = {
  single: '',
  first: 'Première correction',
  second: 'Deuxième correction (indépendante de la première)',
  arbiter: 'Arbitrage : votre note sera la note finale',
  done: 'Copie corrigée deux fois : rien à ajouter',
};

export const DOUBLE_STATUS_TEXT: Record<DoubleStatus, string> = {
  none: 'Pas encore corrigée',
  partial: 'Une correction sur deux',
  arbitration: 'À arbitrer : les deux notes sont trop éloignées',
  settled: 'Réglée : moyenne des deux notes',
  arbitrated: 'Réglée par arbitrage',
};

/**
 * Beside the copy (decision 65): the statement of the version this pupil received, rendered (KaTeX
 * arrives with MathText, lazily), the expected answer of a numeric exercise, the points, and in
 * double correction where the copy stands and the gradings the corrector may see.
 */
export function DeskPanel({
  desk,
  exerciseTitle,
  dismissPagesAdded,
}: {
  desk: Desk;
  exerciseTitle: string;
  /** Decision 139: removes the « pages ajoutées après la note » notice (correctors at the desk). */
  dismissPagesAdded?: { run: () => void; pending: boolean };
}) {
  const { chapter } = desk;
  const roleText = ROLE_TEXT[desk.role];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        {desk.pagesAddedAfterGrade ? (
          // Decision 139: sorting added or took pages after the grade; the grade was kept.
          <Alert color="orange" title={<Badge color="red.9">Pages ajoutées après la note</Badge>}>
            <Stack gap="xs">
              <Text size="sm">
                Le tri a modifié les pages de cette copie après sa note : la note est conservée. Relisez la copie, puis enregistrez la note
                ou retirez cet avertissement.
              </Text>
              {dismissPagesAdded ? (
                <Group>
                  <Button size="xs" variant="default" onClick={dismissPagesAdded.run} loading={dismissPagesAdded.pending}>
                    Retirer l’avertissement
                  </Button>
                </Group>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <Group justify="space-between" align="baseline" wrap="wrap">
          <Title order={2}>Énoncé</Title>
          <Text size="sm" c="gray.7">
            Version {desk.version} · noté sur {formatPoints(desk.maxPoints)}
          </Text>
        </Group>
        <Text size="sm">
          Chapitre :{' '}
          <Anchor component={Link} to={paths.grader(chapter._id)}>
            {chapter.title}
          </Anchor>
          {chapter.anonymousGrading ? ' · correction anonyme' : ''}
        </Text>
        <MathText value={desk.statement} label={`Énoncé : ${exerciseTitle}`} />
        {desk.expectedAnswer !== null ? (
          <Text>
            Réponse attendue : <strong>{desk.expectedAnswer}</strong>
          </Text>
        ) : null}
        {chapter.doubleGrading ? (
          <Stack gap={4}>
            <Group gap="xs">
              <Text size="sm" fw={600}>
                Double correction
              </Text>
              {desk.status ? (
                <Badge
                  color={desk.status === 'arbitration' ? 'red' : 'gray'}
                  variant="light"
                  c={desk.status === 'arbitration' ? 'red.9' : 'gray.9'}
                >
                  {DOUBLE_STATUS_TEXT[desk.status]}
                </Badge>
              ) : null}
            </Group>
            <Text size="sm" c="gray.7">
              Tolérance : {formatPoints(chapter.gradingTolerance)} point{chapter.gradingTolerance > 1 ? 's' : ''}
              {roleText ? ` · ${roleText}` : ''}
            </Text>
            {desk.gradings && desk.gradings.length > 0 ? <GradingsTable gradings={desk.gradings} /> : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

function GradingsTable({ gradings }: { gradings: GradingView[] }) {
  return (
    <Table aria-label="Corrections de cette copie" withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Correcteur</Table.Th>
          <Table.Th scope="col">Note</Table.Th>
          <Table.Th scope="col">Date</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {gradings.map((g, i) => (
          <Table.Tr key={i}>
            <Table.Td>
              {personName(g.grader) || 'Correction automatique'}
              {g.arbitration ? ' (arbitrage)' : ''}
            </Table.Td>
            <Table.Td>{g.grade === null ? '–' : formatGrade(g.grade)}</Table.Td>
            <Table.Td>{formatParisDateTime(g.timestamp)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
