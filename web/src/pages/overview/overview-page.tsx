import { useDeferredValue, useMemo, useState, type ChangeEvent } from 'react';
import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { formatParisDateTime, parseDecimal } from '@olympe/contract';
import { useChapter } from '../../api/chapters';
import { useOverview } from '../../api/grading';
import { downloadCsv } from '../../lib/csv';
import { useSession } from '../../session/session-context';
import { VirtualTable, type VirtualColumn } from '../../components/VirtualTable';
import { paths } from '../../config/paths';
import { arbitrationText, buildLines, filterLines, gradeText, gradingText, overviewCsvName, overviewCsvRows, truncateComment, type OverviewFilters, type OverviewLine } from './overview';
import { PageHeading } from '../../components/page-heading';

/** docs/product.md#spec-9: window height minus 200 px. */
const TABLE_HEIGHT = 'max(320px, calc(100vh - 200px))';
const byStudent = (l: OverviewLine) => l.student.lastName ?? l.studentName;
const byGrader = (l: OverviewLine) => l.graderName;
const byExercise = (l: OverviewLine) => l.exercise.title;
const byDate = (l: OverviewLine) => l.grade_timestamp ?? '';
const byGrade = (l: OverviewLine) => (l.grade === null ? null : (parseDecimal(l.grade) ?? l.grade));
const dateText = (l: OverviewLine) => (l.grade_timestamp ? formatParisDateTime(l.grade_timestamp) : '');

const studentColumn: VirtualColumn<OverviewLine> = {
  key: 'student',
  header: 'Élève',
  cell: (l) => l.studentName,
  sortValue: byStudent,
  fullText: (l) => l.studentName,
};
const graderColumn: VirtualColumn<OverviewLine> = { key: 'grader', header: 'Correcteur', cell: (l) => l.graderName, sortValue: byGrader, fullText: (l) => l.graderName };
const exerciseColumn: VirtualColumn<OverviewLine> = {
  key: 'exercise',
  header: 'Exercice',
  cell: (l) => l.exercise.title,
  sortValue: byExercise,
  fullText: (l) => l.exercise.title,
};
// Issue 20: the settled grade against the exercise's points, decimal comma (« 6,75 / 10 »).
const gradeColumn: VirtualColumn<OverviewLine> = { key: 'grade', header: 'Note', width: 84, align: 'center', cell: gradeText, sortValue: byGrade };
// Double correction: both correctors' grades and the arbitration, each with who gave it (in place of
// « Correcteur », which would name only whoever saved last). Widths leave the pupil's and the exercise's
// names about 100 px each at 1280 px (the sidebar takes 275): « 0,5 — Sophie Second » and « 27 novembre
// 2026 à 13:51 » take two lines, the 40 characters of a comment too.
const doubleColumns: VirtualColumn<OverviewLine>[] = [
  { key: 'first', header: '1re correction', width: 120, cell: (l) => gradingText(l.first), fullText: (l) => gradingText(l.first) },
  { key: 'second', header: '2e correction', width: 120, cell: (l) => gradingText(l.second), fullText: (l) => gradingText(l.second) },
  { key: 'arbitration', header: 'Arbitrage', width: 100, cell: arbitrationText, fullText: arbitrationText },
];
const tailColumns: VirtualColumn<OverviewLine>[] = [
  {
    key: 'comment',
    header: 'Commentaire',
    // docs/product.md#spec-9: cut at 40 characters (not by the column's width): the cell wraps to show all 40.
    width: 170,
    cell: (l) => truncateComment(l.grade_comment),
    fullText: (l) => l.grade_comment ?? '',
  },
  { key: 'date', header: 'Date', width: 120, sortValue: byDate, fullText: dateText, cell: dateText },
  {
    key: 'link',
    header: 'Lien',
    width: 56,
    cell: (l) => (
      <Anchor component={Link} to={paths.history(l.student._id, l.exercise._id)} aria-label={`Voir la copie de ${l.studentName}, ${l.exercise.title}`}>
        Voir
      </Anchor>
    ),
  },
];

const columnsFor = (double: boolean): VirtualColumn<OverviewLine>[] =>
  double
    ? [studentColumn, exerciseColumn, gradeColumn, ...doubleColumns, ...tailColumns]
    : [studentColumn, graderColumn, exerciseColumn, gradeColumn, ...tailColumns];

/** docs/product.md#spec-2 "Aperçu des corrections" (/overview/{id}). */
export function OverviewPage() {
  const { id = '' } = useParams();
  const query = useOverview(id);
  const [filters, setFilters] = useState<OverviewFilters>({ student: '', grader: '', exercise: '' });
  const deferred = useDeferredValue(filters);
  const lines = useMemo(() => buildLines(query.data ?? []), [query.data]);
  const shown = useMemo(() => filterLines(lines, deferred), [lines, deferred]);
  const double = useMemo(() => lines.some((l) => l.status !== undefined), [lines]);
  const columns = useMemo(() => columnsFor(double), [double]);
  const { roles } = useSession();
  // The chapter's title names the CSV file (admins only, who read the chapter).
  const chapter = useChapter(roles.isAdmin ? id : '');
  const set = (key: keyof OverviewFilters) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setFilters((f) => ({ ...f, [key]: value }));
  };

  return (
    <Stack gap="sm">
      <PageHeading>Aperçu des corrections</PageHeading>
      <Group align="flex-end">
        <TextInput label="Élève" value={filters.student} onChange={set('student')} />
        <TextInput label="Correcteur" value={filters.grader} onChange={set('grader')} />
        <TextInput label="Exercice" value={filters.exercise} onChange={set('exercise')} />
        <Text aria-live="polite">
          {shown.length}/{lines.length} corrections
        </Text>
        {roles.isAdmin && query.data ? (
          <Button
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            onClick={() => downloadCsv(overviewCsvName(chapter.data?.title ?? id), overviewCsvRows(shown, double))}
          >
            Exporter en CSV
          </Button>
        ) : null}
      </Group>
      {query.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label="Chargement des corrections" />
        </Center>
      ) : query.isError ? (
        <Alert color="red">Impossible de charger les corrections.</Alert>
      ) : (
        <VirtualTable
          rows={shown}
          columns={columns}
          rowKey={(l) => l._id}
          height={TABLE_HEIGHT}
          label="Aperçu des corrections"
          initialSort={{ key: 'date', direction: 'desc' }}
          emptyText="Aucune correction pour le moment."
          // Under this, the columns of fixed width leave nothing to the names: the table scrolls sideways.
          minWidth={double ? 960 : 760}
        />
      )}
    </Stack>
  );
}
