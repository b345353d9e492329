import { useState } from 'react';
import { Anchor, Button, Collapse, Group, List, MultiSelect, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  formatGrade,
  formatPoints,
  type Assignments,
  type CorrectorProgress,
  type ExerciseProgress,
  type GradingTable,
  type Person,
} from '@olympe/contract';
import { useArbitration, useAssignments, useSaveAssignments } from '../../api/grading';
import { correctorSpread, nameOf } from './grading-spread';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';

/** Double correction (decision 63): per exercise, copies with 0, 1 or 2 gradings and awaiting arbitration. */
export function ProgressCounts({ exercises, progress }: { exercises: GradingTable['exercises']; progress: ExerciseProgress[] }) {
  const byId = new Map(progress.map((p) => [p.exercise, p]));
  return (
    <Table aria-label="Double correction : copies par nombre de corrections" withTableBorder striped maw={640} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Exercice</Table.Th>
          <Table.Th scope="col">0 correction</Table.Th>
          <Table.Th scope="col">1 correction</Table.Th>
          <Table.Th scope="col">2 corrections</Table.Th>
          <Table.Th scope="col">À arbitrer (≠)</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {exercises.map((e) => {
          const p = byId.get(e._id);
          return (
            <Table.Tr key={e._id}>
              <Table.Td lang="fr" style={WRAP_AT_SPACES}>
                {e.title}
              </Table.Td>
              <Table.Td>{p?.graded0 ?? 0}</Table.Td>
              <Table.Td>{p?.graded1 ?? 0}</Table.Td>
              <Table.Td>{p?.graded2 ?? 0}</Table.Td>
              <Table.Td fw={p && p.arbitration > 0 ? 700 : undefined}>{p?.arbitration ?? 0}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Decision 63: per corrector, copies graded and the mean grade given, with its distance to the mean of
 * all correctors, so an admin spots one much harsher (or kinder) than the others.
 */
export function CorrectorProgressLine({ correctors }: { correctors: CorrectorProgress[] }) {
  const spread = correctorSpread(correctors);
  return (
    <Table aria-label="Avancement par correcteur" withTableBorder striped maw={640} fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Correcteur</Table.Th>
          <Table.Th scope="col">Copies corrigées</Table.Th>
          <Table.Th scope="col">Note moyenne donnée</Table.Th>
          <Table.Th scope="col">Écart à la moyenne</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {spread.map(({ corrector, copies, meanGrade, gap }) => (
          <Table.Tr key={corrector._id}>
            <Table.Td>{nameOf(corrector)}</Table.Td>
            <Table.Td>{copies}</Table.Td>
            <Table.Td>{meanGrade === null ? '–' : formatPoints(Math.round(meanGrade * 100) / 100)}</Table.Td>
            <Table.Td>{gap === null ? '–' : `${gap > 0 ? '+' : gap < 0 ? '−' : ''}${formatPoints(Math.abs(gap))}`}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Decision 63 (admins): the copies whose two grades are too far apart; an admin's grade settles each. */
export function ArbitrationList({ chapterId }: { chapterId: string }) {
  const query = useArbitration(chapterId, true);
  const rows = query.data ?? [];
  return (
    <Paper withBorder p="sm">
      <Title order={2} size="h4">
        À arbitrer ({query.isPending ? '…' : rows.length})
      </Title>
      {query.isError ? (
        <Text c="red.9">Impossible de charger les copies à arbitrer.</Text>
      ) : rows.length === 0 && !query.isPending ? (
        <Text size="sm">Aucune copie à arbitrer.</Text>
      ) : (
        <List size="sm" spacing={4} mt="xs">
          {rows.map((r) => (
            <List.Item key={r.answerId}>
              <Anchor component={Link} to={`/history/${r.url}`}>
                {nameOf(r.student)} — {r.exercise.title}
              </Anchor>{' '}
              : notes {r.gradings.map((g) => (g.grade === null ? '–' : formatGrade(g.grade))).join(' et ')} sur{' '}
              {formatPoints(r.exercise.maxPoints)}
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}

/**
 * Decision 64 (admins): which correctors grade which exercise. A corrector then gets next copies only
 * for their exercises; an exercise left empty is open to anyone. Loaded when opened.
 */
export function AssignmentsPanel({ chapterId }: { chapterId: string }) {
  const [open, setOpen] = useState(false);
  const query = useAssignments(chapterId, open);
  return (
    <Paper withBorder p="sm">
      <Button
        variant="subtle"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls="assignments-panel"
        rightSection={open ? <IconChevronUp size={16} aria-hidden="true" /> : <IconChevronDown size={16} aria-hidden="true" />}
      >
        Répartition des corrections
      </Button>
      <Collapse expanded={open} id="assignments-panel">
        {query.data ? (
          <AssignmentsForm key={query.dataUpdatedAt} chapterId={chapterId} assignments={query.data} />
        ) : query.isError ? (
          <Text c="red.9">Impossible de charger la répartition.</Text>
        ) : null}
      </Collapse>
    </Paper>
  );
}

function AssignmentsForm({ chapterId, assignments }: { chapterId: string; assignments: Assignments }) {
  const [chosen, setChosen] = useState<Record<string, string[]>>(() =>
    Object.fromEntries(assignments.exercises.map((e) => [e._id, e.correctors])),
  );
  const save = useSaveAssignments(chapterId);
  const options = assignments.correctors.map((c: Person) => ({ value: c._id, label: nameOf(c) || c._id }));
  return (
    <Stack gap="sm" mt="sm">
      <Text size="sm" c="gray.7">
        Un correcteur ne reçoit des copies suivantes que pour ses exercices. Un exercice sans correcteur est ouvert à tous.
      </Text>
      {assignments.exercises.map((e) => (
        <MultiSelect
          key={e._id}
          label={e.title}
          placeholder={chosen[e._id]?.length ? undefined : 'Tous les correcteurs'}
          data={options}
          value={chosen[e._id] ?? []}
          onChange={(value) => setChosen((c) => ({ ...c, [e._id]: value }))}
          searchable
          clearable
          maw={560}
        />
      ))}
      <Group>
        <Button
          loading={save.isPending}
          onClick={() =>
            save.mutate({ assignments: assignments.exercises.map((e) => ({ exercise: e._id, correctors: chosen[e._id] ?? [] })) })
          }
        >
          Enregistrer la répartition
        </Button>
      </Group>
    </Stack>
  );
}
