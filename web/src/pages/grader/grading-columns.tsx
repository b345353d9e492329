import { useCallback, useMemo, useState, type CSSProperties } from 'react';
import { Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useNavigate } from 'react-router';
import { formatGrade, formatPoints, type GradingTable } from '@olympe/contract';
import { selectNextAnswer } from '../../api/grading';
import type { VirtualColumn } from '../../components/VirtualTable';
import { paths } from '../../config/paths';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';
import { gradingCellKind, type GradingRow } from './grading-table';

/** Cell colours with readable contrast (axe): light backgrounds, dark text. */
const CELL_STYLES: Record<string, CSSProperties> = {
  // green.9 on green.1 is 3.8:1 (below AA): the green background carries the kind, the grade stays dark.
  graded: { background: 'var(--mantine-color-green-1)', color: 'var(--mantine-color-gray-9)' },
  excused: { background: 'var(--mantine-color-gray-2)', color: 'var(--mantine-color-gray-8)' },
  ungraded: { background: 'var(--mantine-color-red-1)', color: 'var(--mantine-color-red-9)' },
  // Decision 63: « ≠ », two grades too far apart, awaiting an admin.
  arbitration: {
    background: 'var(--mantine-color-orange-1)',
    color: 'var(--mantine-color-gray-9)',
    outline: '2px solid var(--mantine-color-orange-7)',
  },
};
const cellLinkStyle: CSSProperties = {
  display: 'block',
  borderRadius: 4,
  padding: '2px 6px',
  fontWeight: 600,
  textAlign: 'center',
  textDecoration: 'none',
};

type ExerciseCounts = NonNullable<NonNullable<GradingTable['page']>['counts']>[number];

/** A click on an exercise's header opens its next copy to grade; one at a time. */
function useOpenNext() {
  const navigate = useNavigate();
  const [selecting, setSelecting] = useState<string | null>(null);
  const openNext = useCallback(
    async (exerciseId: string) => {
      setSelecting(exerciseId);
      try {
        const next = await selectNextAnswer(exerciseId);
        // Without a url the server's message (nothing left to grade) is already shown.
        if (next.url) navigate(`/history/${next.url}`);
      } catch (error) {
        console.error(error);
      } finally {
        setSelecting(null);
      }
    },
    [navigate],
  );
  return { selecting, openNext };
}

function ExerciseHeader({
  exercise,
  count,
  disabled,
  onOpen,
}: {
  exercise: GradingTable['exercises'][number];
  count: ExerciseCounts | undefined;
  disabled: boolean;
  onOpen: () => void;
}) {
  return (
    // Decision 141: the title wraps (three lines, then cut) and shows whole in a tooltip on hover and on focus. It wraps
    // between words, hyphenated in French, never inside one (decision 141). The button's name is its visible text
    // with what it does before and the counts in words after (axe's label-content-name-mismatch, decision 141).
    <Tooltip label={exercise.title} events={{ hover: true, focus: true, touch: false }} multiline maw={320} withinPortal>
      <UnstyledButton
        onClick={onOpen}
        disabled={disabled}
        lang="fr"
        data-exercise-header=""
        style={{ display: 'block', width: '100%', textAlign: 'center', fontWeight: 700, ...WRAP_AT_SPACES }}
      >
        <VisuallyHidden>Corriger la copie suivante :</VisuallyHidden>{' '}
        <Text span inherit lineClamp={3}>
          {exercise.title}
        </Text>
        {count ? (
          <Text span size="xs" fw={400} display="block">
            {count.graded} / {count.answered}
          </Text>
        ) : (
          <Text span size="xs" fw={400} display="block">
            …
          </Text>
        )}
        {exercise.maxPoints !== undefined ? (
          <Text span size="xs" fw={400} display="block">
            sur {formatPoints(exercise.maxPoints)}
          </Text>
        ) : null}
        {count && (
          <VisuallyHidden>
            {`(${count.graded} ${count.graded > 1 ? 'corrigées' : 'corrigée'} sur ${count.answered} ${count.answered > 1 ? 'réponses' : 'réponse'})`}
          </VisuallyHidden>
        )}
      </UnstyledButton>
    </Tooltip>
  );
}

/** The grading table's columns: names, total, and one column per exercise whose header opens the next copy. */
export function useGradingColumns(table: GradingTable, counts: readonly ExerciseCounts[] | undefined) {
  const { exercises } = table;
  const { selecting, openNext } = useOpenNext();
  return useMemo<VirtualColumn<GradingRow>[]>(
    () => [
      // The rows come in the server's order (decision 83): the columns are not sorted by a click.
      { key: 'lastName', header: 'Nom', cell: (r) => r.lastName, width: 180, fullText: (r) => r.lastName ?? '' },
      { key: 'firstName', header: 'Prénom', cell: (r) => r.firstName, width: 150, fullText: (r) => r.firstName ?? '' },
      {
        key: 'total',
        // Decision 61: totals read against the maximum (« TOT » on 12).
        header:
          table.maxTotal !== undefined ? (
            // Read « TOT sur 12 », shown « TOT / 12 ».
            <>
              TOT <span aria-hidden="true">/</span>
              <VisuallyHidden>sur</VisuallyHidden> {formatPoints(table.maxTotal)}
            </>
          ) : (
            'TOT'
          ),
        cell: (r) => formatPoints(r.total),
        width: 90,
        align: 'center',
      },
      ...exercises.map<VirtualColumn<GradingRow>>((exercise, i) => ({
        key: exercise._id,
        width: table.chapter.doubleGrading ? 140 : 120,
        align: 'center',
        header: (
          <ExerciseHeader exercise={exercise} count={counts?.[i]} disabled={selecting !== null} onOpen={() => openNext(exercise._id)} />
        ),
        cell: (r) => (
          <GradeCell
            row={r}
            exerciseId={exercise._id}
            exerciseTitle={exercise.title}
            value={r.data[i]}
            pagesAdded={r.pagesAdded?.includes(i) ?? false}
          />
        ),
      })),
    ],
    [exercises, counts, selecting, openNext, table.maxTotal, table.chapter.doubleGrading],
  );
}

/** docs/product.md#spec-2: green with the grade, gray X, red "?", each linking to the history; blank when no answer. */
function GradeCell({
  row,
  exerciseId,
  exerciseTitle,
  value,
  pagesAdded = false,
}: {
  row: Pick<GradingRow, 'id' | 'firstName' | 'lastName'>;
  exerciseId: string;
  exerciseTitle: string;
  value: string;
  /** Decision 139: sorting added pages after the grade; the cell carries a « + » and says so. */
  pagesAdded?: boolean;
}) {
  const kind = gradingCellKind(value);
  if (kind === 'none') return null;
  const who = `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim();
  const what =
    kind === 'ungraded'
      ? 'à corriger'
      : kind === 'excused'
        ? 'X'
        : kind === 'arbitration'
          ? 'à arbitrer (≠)'
          : `note ${formatGrade(value)}`;
  return (
    <a
      href={paths.history(row.id, exerciseId)}
      data-cell=""
      style={{ ...cellLinkStyle, ...CELL_STYLES[kind] }}
      aria-label={`${who}, ${exerciseTitle} : ${what}${pagesAdded ? ', pages ajoutées après la note' : ''}`}
      title={pagesAdded ? 'Pages ajoutées après la note' : undefined}
    >
      {formatGrade(value)}
      {pagesAdded ? ' +' : ''}
    </a>
  );
}
