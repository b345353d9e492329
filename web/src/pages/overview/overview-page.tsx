import { useCallback, useMemo, useState, type ChangeEvent } from 'react';
import { Alert, Anchor, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useParams } from 'react-router';
import { formatParisDateTime, OVERVIEW_SORTS, type OverviewRow, type OverviewSort } from '@olympe/contract';
import { useChapter } from '../../api/chapters';
import { useFetchWholeOverview, useOverviewCounts, useOverviewPages, type OverviewView } from '../../api/grading';
import { downloadCsv } from '../../lib/csv';
import { useSession } from '../../session/session-context';
import { VirtualTable, type SortState, type VirtualColumn } from '../../components/VirtualTable';
import { DownloadButton } from '../../components/download-button';
import { paths } from '../../config/paths';
import {
  arbitrationText,
  buildLines,
  filterLines,
  gradedAt,
  gradeText,
  gradingText,
  overviewCsvName,
  overviewCsvRows,
  truncateComment,
  type OverviewFilters,
  type OverviewLine,
} from './overview';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';
import { PageHeading } from '../../components/page-heading';

/** docs/product.md#spec-9: window height minus 200 px. */
const TABLE_HEIGHT = 'max(320px, calc(100vh - 200px))';
/** Filters wait for a pause in typing before they ask the server. */
const FILTER_DEBOUNCE_MS = 300;
const dateText = (l: OverviewLine) => {
  const at = gradedAt(l);
  return at ? formatParisDateTime(at) : '';
};

const studentColumn: VirtualColumn<OverviewLine> = {
  key: 'student',
  header: 'Élève',
  cell: (l) => l.studentName,
  sortable: true,
  fullText: (l) => l.studentName,
};
const graderColumn: VirtualColumn<OverviewLine> = {
  key: 'grader',
  header: 'Correcteur',
  cell: (l) => l.graderName,
  sortable: true,
  fullText: (l) => l.graderName,
};
const exerciseColumn: VirtualColumn<OverviewLine> = {
  key: 'exercise',
  header: 'Exercice',
  // Decision 141: a narrow column on a phone wraps the title between words (« Arithmétique », not « Arithmétiq/ue »).
  cell: (l) => (
    <span lang="fr" style={WRAP_AT_SPACES}>
      {l.exercise.title}
    </span>
  ),
  sortable: true,
  fullText: (l) => l.exercise.title,
};
// Decision 61: the settled grade against the exercise's points, decimal comma (« 6,75 / 10 »).
const gradeColumn: VirtualColumn<OverviewLine> = {
  key: 'grade',
  header: 'Note',
  width: 84,
  align: 'center',
  cell: gradeText,
  sortable: true,
};
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
  { key: 'date', header: 'Date', width: 120, sortable: true, fullText: dateText, cell: dateText },
  {
    key: 'link',
    header: 'Lien',
    width: 56,
    cell: (l) => (
      <Anchor
        component={Link}
        to={paths.history(l.student._id, l.exercise._id)}
        aria-label={`Voir la copie de ${l.studentName}, ${l.exercise.title}`}
      >
        Voir
      </Anchor>
    ),
  },
];

const columnsFor = (double: boolean): VirtualColumn<OverviewLine>[] =>
  double
    ? [studentColumn, exerciseColumn, gradeColumn, ...doubleColumns, ...tailColumns]
    : [studentColumn, graderColumn, exerciseColumn, gradeColumn, ...tailColumns];

/** The sortable columns' keys are the server's sort names (decision 94). */
const sortOf = (key: string): OverviewSort => ((OVERVIEW_SORTS as readonly string[]).includes(key) ? (key as OverviewSort) : 'date');
const NO_ROWS: OverviewRow[] = [];

/** The rows of the pages loaded so far. */
function loadedRows(pages: { rows: OverviewRow[] }[] | undefined): OverviewRow[] {
  // A page's offset can shift while correctors grade: a copy seen on an earlier page is kept once.
  const seen = new Set<string>();
  const all = pages?.flatMap((p) => p.rows) ?? NO_ROWS;
  return all.filter((r) => {
    if (seen.has(r._id)) return false;
    seen.add(r._id);
    return true;
  });
}

/** « Exporter en CSV » (admins): every copy the filters keep, in the list's order, not only the pages scrolled to. */
function useExportCsv(id: string, filters: OverviewFilters, isAdmin: boolean) {
  const fetchWhole = useFetchWholeOverview(id);
  // The chapter's title names the CSV file (admins only, who read the chapter).
  const chapter = useChapter(isAdmin ? id : '');
  return async () => {
    const all = buildLines(await fetchWhole());
    downloadCsv(
      overviewCsvName(chapter.data?.title ?? id),
      overviewCsvRows(
        filterLines(all, filters),
        all.some((l) => l.status !== undefined),
      ),
    );
  };
}

/**
 * docs/product.md#spec-2 "Aperçu des corrections" (/overview/{id}). Decision 94: the server filters, sorts and
 * pages; the table asks for the next page as it scrolls, and the counts come beside the first page.
 */
export function OverviewPage() {
  const { id = '' } = useParams();
  const [filters, setFilters] = useState<OverviewFilters>({ student: '', grader: '', exercise: '' });
  const [debounced] = useDebouncedValue(filters, FILTER_DEBOUNCE_MS);
  const [sort, setSort] = useState<SortState>({ key: 'date', direction: 'desc' });
  const view = useMemo<OverviewView>(() => ({ sort: sortOf(sort.key), dir: sort.direction, filters: debounced }), [sort, debounced]);
  const pages = useOverviewPages(id, view);
  const counts = useOverviewCounts(id, debounced);
  const rows = useMemo(() => loadedRows(pages.data?.pages), [pages.data]);
  const lines = useMemo(() => buildLines(rows), [rows]);
  const double = pages.data?.pages[0]?.double ?? false;
  const columns = useMemo(() => columnsFor(double), [double]);
  const { roles } = useSession();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const onEndReached = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const set = (key: keyof OverviewFilters) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setFilters((f) => ({ ...f, [key]: value }));
  };
  const exportCsv = useExportCsv(id, filters, roles.isAdmin);

  return (
    <Stack gap="sm">
      <PageHeading>Aperçu des corrections</PageHeading>
      <Group align="flex-end">
        <TextInput label="Élève" value={filters.student} onChange={set('student')} />
        <TextInput label="Correcteur" value={filters.grader} onChange={set('grader')} />
        <TextInput label="Exercice" value={filters.exercise} onChange={set('exercise')} />
        <Text aria-live="polite">
          {counts.data ? `${counts.data.matched}/${counts.data.total} corrections` : 'Comptage des corrections…'}
        </Text>
        {roles.isAdmin && pages.data ? <DownloadButton label="Exporter en CSV" run={exportCsv} /> : null}
      </Group>
      {pages.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label="Chargement des corrections" />
        </Center>
      ) : pages.isError ? (
        <Alert color="red">Impossible de charger les corrections.</Alert>
      ) : (
        <VirtualTable
          rows={lines}
          columns={columns}
          rowKey={(l) => l._id}
          height={TABLE_HEIGHT}
          label="Aperçu des corrections"
          sort={sort}
          onSortChange={setSort}
          onEndReached={onEndReached}
          totalRows={counts.data?.matched}
          emptyText="Aucune correction pour le moment."
          // Under this, the columns of fixed width leave nothing to the names: the table scrolls sideways.
          minWidth={double ? 960 : 760}
        />
      )}
    </Stack>
  );
}
