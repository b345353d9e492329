import { useMemo } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { formatPoints, type Board } from '@olympe/contract';
import { VirtualTable, type VirtualColumn } from '../../components/VirtualTable';
import { reasonText, sectorText, statusText, type PupilRow } from './board-model';
import type { DecisionTarget } from './decision-dialog';

const cell = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatPoints(n));

/** The columns of a category's list: rank, pupil, score, per-exercise scores, school, status and why, the jury's buttons. */
function columnsOf(board: Board, canDecide: boolean, onDecide: (target: DecisionTarget) => void): VirtualColumn<PupilRow>[] {
  const school = (row: PupilRow) => board.schoolTable[board.schools[row.index]!];
  const n = board.exercises.length;
  const exercises: VirtualColumn<PupilRow>[] = board.exercises.map((e, x) => ({
    key: `ex${x}`,
    header: <span title={`${e.chapterTitle} : ${e.title} (sur ${formatPoints(e.maxPoints)})`}>{`E${x + 1}`}</span>,
    width: 56,
    align: 'right',
    cell: (row) => cell(board.exerciseScores[row.index * n + x]),
  }));
  const columns: VirtualColumn<PupilRow>[] = [
    { key: 'rank', header: 'Rang', width: 60, align: 'right', cell: (row) => row.rank },
    { key: 'pupil', header: board.names ? 'Élève' : 'Pseudonyme', width: 160, cell: (row) => row.label, fullText: (row) => row.label },
    { key: 'score', header: 'Score', width: 70, align: 'right', cell: (row) => formatPoints(row.score) },
    ...exercises,
    { key: 'sector', header: 'Secteur', width: 80, cell: (row) => sectorText(school(row)?.sector) },
    {
      key: 'academy',
      header: 'Académie',
      width: 120,
      cell: (row) => school(row)?.academy ?? 'Inconnue',
      fullText: (row) => school(row)?.academy ?? '',
    },
    {
      key: 'status',
      header: 'Statut',
      width: 150,
      cell: (row) => (
        <Badge color={row.selected ? 'teal.9' : 'gray.7'} variant={row.selected ? 'filled' : 'outline'}>
          {statusText(row.selected)}
        </Badge>
      ),
    },
    { key: 'reason', header: 'Motif', width: 200, cell: (row) => reasonText(row), fullText: (row) => reasonText(row) },
  ];
  if (!canDecide) return columns;
  return [
    ...columns,
    {
      key: 'actions',
      header: 'Décision',
      width: 230,
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          {row.decision !== 'include' && (
            <Button
              size="compact-xs"
              variant="light"
              aria-label={`Inclure ${row.label}`}
              onClick={() => onDecide({ key: row.key, label: row.label, decision: 'include' })}
            >
              Inclure
            </Button>
          )}
          {row.decision !== 'exclude' && (
            <Button
              size="compact-xs"
              variant="light"
              color="red.9"
              aria-label={`Exclure ${row.label}`}
              onClick={() => onDecide({ key: row.key, label: row.label, decision: 'exclude' })}
            >
              Exclure
            </Button>
          )}
          {row.decision !== null && (
            <Button
              size="compact-xs"
              variant="subtle"
              aria-label={`Annuler la décision sur ${row.label}`}
              onClick={() => onDecide({ key: row.key, label: row.label, decision: null })}
            >
              Annuler
            </Button>
          )}
        </Group>
      ),
    },
  ];
}

/** The category's list, virtual (10,000 pupils), in the board's order. */
export function PupilTable({
  board,
  rows,
  name,
  canDecide,
  onDecide,
}: {
  board: Board;
  rows: PupilRow[];
  name: string;
  canDecide: boolean;
  onDecide: (target: DecisionTarget) => void;
}) {
  const columns = useMemo(() => columnsOf(board, canDecide, onDecide), [board, canDecide, onDecide]);
  return (
    <VirtualTable
      rows={rows}
      columns={columns}
      rowKey={(row) => row.key}
      height="min(600px, 70vh)"
      label={`Liste de la catégorie « ${name} »`}
      minWidth={900 + board.exercises.length * 56}
      emptyText="Aucun élève dans cette catégorie."
    />
  );
}
