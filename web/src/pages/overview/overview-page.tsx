import { useDeferredValue, useMemo, useState, type ChangeEvent } from 'react';
import { Alert, Anchor, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { formatParisDateTime } from '@olympe/contract';
import { useOverview } from '../../api/grading';
import { VirtualTable, type VirtualColumn } from '../../components/VirtualTable';
import { paths } from '../../config/paths';
import { buildLines, filterLines, truncateComment, type OverviewFilters, type OverviewLine } from './overview';
import { PageHeading } from '../../components/page-heading';

/** docs/product.md#spec-9: window height minus 200 px. */
const TABLE_HEIGHT = 'max(320px, calc(100vh - 200px))';
const byStudent = (l: OverviewLine) => l.student.lastName ?? l.studentName;
const byGrader = (l: OverviewLine) => l.graderName;
const byExercise = (l: OverviewLine) => l.exercise.title;
const byDate = (l: OverviewLine) => l.grade_timestamp ?? '';

const columns: VirtualColumn<OverviewLine>[] = [
  // Issue 20: names and titles wrap (full text on hover) instead of « Somme d… ».
  { key: 'student', header: 'Élève', cell: (l) => l.studentName, sortValue: byStudent, fullText: (l) => l.studentName },
  { key: 'grader', header: 'Correcteur', cell: (l) => l.graderName, sortValue: byGrader, fullText: (l) => l.graderName },
  { key: 'exercise', header: 'Exercice', cell: (l) => l.exercise.title, sortValue: byExercise, fullText: (l) => l.exercise.title },
  { key: 'grade', header: 'Note', width: 70, align: 'center', cell: (l) => l.grade ?? '' },
  {
    key: 'comment',
    header: 'Commentaire',
    // docs/product.md#spec-9: cut at 40 characters (not by the column's width): the cell wraps to show all 40.
    width: '24%',
    cell: (l) => truncateComment(l.grade_comment),
    fullText: (l) => l.grade_comment ?? '',
  },
  { key: 'date', header: 'Date', width: 215, sortValue: byDate, cell: (l) => (l.grade_timestamp ? formatParisDateTime(l.grade_timestamp) : '') },
  {
    key: 'link',
    header: 'Lien',
    width: 70,
    cell: (l) => (
      <Anchor component={Link} to={paths.history(l.student._id, l.exercise._id)} aria-label={`Voir la copie de ${l.studentName}, ${l.exercise.title}`}>
        Voir
      </Anchor>
    ),
  },
];

/** docs/product.md#spec-2 "Aperçu des corrections" (/overview/{id}). */
export function OverviewPage() {
  const { id = '' } = useParams();
  const query = useOverview(id);
  const [filters, setFilters] = useState<OverviewFilters>({ student: '', grader: '', exercise: '' });
  const deferred = useDeferredValue(filters);
  const lines = useMemo(() => buildLines(query.data ?? []), [query.data]);
  const shown = useMemo(() => filterLines(lines, deferred), [lines, deferred]);
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
        />
      )}
    </Stack>
  );
}
