import { useCallback, useDeferredValue, useMemo, useState, type CSSProperties, type MouseEvent } from 'react';
import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text, TextInput, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconDownload, IconRobot, IconSearch } from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useNavigate, useParams } from 'react-router';
import { formatGrade, formatPoints, normalizeText, type GradingTable } from '@olympe/contract';
import {
  selectNextAnswer,
  useAutoCorrection,
  useFetchWholeTable,
  useGradingHeader,
  useGradingPages,
  useUnlabeledCount,
} from '../../api/grading';
import { sortRows, VirtualTable, type VirtualColumn } from '../../components/VirtualTable';
import { paths } from '../../config/paths';
import { downloadCsv } from '../../lib/csv';
import { WRAP_AT_SPACES } from '../../lib/wrap-at-spaces';
import { DownloadButton } from '../../components/download-button';
import { downloadChapterGradesXlsx } from '../../api/results';
import { useSession } from '../../session/session-context';
import {
  buildRows,
  filterRows,
  gradingCellKind,
  resultsCsvRows,
  resultsFileName,
  totalCounts,
  type GradingRow,
} from './grading-table';
import { PageHeading } from '../../components/page-heading';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';
import { useAutoCorrectionCount } from '../../api/results';
import { ArbitrationList, AssignmentsPanel, CorrectorProgressLine, ProgressCounts } from './marks-sections';

/** docs/product.md#spec-9: grading table height is the window height minus 200 px. */
const TABLE_HEIGHT = 'max(320px, calc(100vh - 200px))';
// Stable function: sortRows caches sort keys per function (the CSV export sorts by last name).
const byLastName = (r: GradingRow) => r.lastName;

/** Cell colours with readable contrast (axe): light backgrounds, dark text. */
const CELL_STYLES: Record<string, CSSProperties> = {
  // green.9 on green.1 is 3.8:1 (below AA): the green background carries the kind, the grade stays dark.
  graded: { background: 'var(--mantine-color-green-1)', color: 'var(--mantine-color-gray-9)' },
  excused: { background: 'var(--mantine-color-gray-2)', color: 'var(--mantine-color-gray-8)' },
  ungraded: { background: 'var(--mantine-color-red-1)', color: 'var(--mantine-color-red-9)' },
  // Decision 63: « ≠ », two grades too far apart, awaiting an admin.
  arbitration: { background: 'var(--mantine-color-orange-1)', color: 'var(--mantine-color-gray-9)', outline: '2px solid var(--mantine-color-orange-7)' },
};
const cellLinkStyle: CSSProperties = {
  display: 'block',
  borderRadius: 4,
  padding: '2px 6px',
  fontWeight: 600,
  textAlign: 'center',
  textDecoration: 'none',
};

/** « 1 234 copies seront notées » (decision 69); the grades given by a person are never touched. */
export function autoCorrectionMessage(count: number): string {
  if (count === 0) return 'Aucune copie ne sera notée : toutes les réponses numériques sont déjà notées.';
  return `${countOf(count, 'copie')} ${count > 1 ? 'seront notées' : 'sera notée'} (réponses numériques ; les notes données par un correcteur ne changent pas).`;
}

/** The search asks the server once typing pauses this long. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * docs/product.md#spec-2 "Correction : {title}" (/grader/{id}). The table is paged by the server
 * (decision 83): pages of GRADING_PAGE_SIZE pupils load as it scrolls, the search runs on the server,
 * and the header's counts come from a request of their own, beside the first page.
 */
export function GraderPage() {
  const { id = '' } = useParams();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(normalizeText(search), SEARCH_DEBOUNCE_MS);
  const query = useGradingPages(id, q);
  const header = useGradingHeader(id, q);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  if (query.isPending) {
    return (
      <Stack>
        <PageHeading>Correction</PageHeading>
        <Center py="xl">
          <Loader role="status" aria-label="Chargement du tableau de correction" />
        </Center>
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Stack>
        <PageHeading>Correction</PageHeading>
        <Alert color="red">Impossible de charger le tableau de correction.</Alert>
      </Stack>
    );
  }
  return (
    <GradingBoard
      chapterId={id}
      pages={query.data.pages}
      header={header.data}
      search={search}
      onSearch={setSearch}
      onEndReached={loadMore}
      loadingMore={isFetchingNextPage}
    />
  );
}

interface GradingBoardProps {
  chapterId: string;
  /** The pages loaded so far; the first carries the chapter and the exercises. */
  pages: readonly GradingTable[];
  /** The header (`limit=0`): counts, progress, correctors; undefined until it arrives. */
  header: GradingTable | undefined;
  search: string;
  onSearch: (value: string) => void;
  onEndReached: () => void;
  loadingMore: boolean;
}

function GradingBoard({ chapterId, pages, header, search, onSearch, onEndReached, loadingMore }: GradingBoardProps) {
  const { roles } = useSession();
  const navigate = useNavigate();
  const fetchWholeTable = useFetchWholeTable(chapterId);
  const table = pages[0];
  const rows = useMemo(() => pages.flatMap((page) => buildRows(page)), [pages]);
  // The server searched already; the same filter on the rows loaded narrows them at once while it answers.
  const deferredSearch = useDeferredValue(search);
  const shown = useMemo(() => filterRows(rows, deferredSearch), [rows, deferredSearch]);
  // The whole chapter's counts, from the header; the rows loaded would undercount.
  const counts = header?.page?.counts;
  const overall = counts ? totalCounts(counts) : undefined;
  const pupils = header?.page?.pupils;
  const matched = header?.page?.matched;
  const { chapter, exercises } = table;

  const unlabeled = useUnlabeledCount(chapterId, chapter.offline);
  const auto = useAutoCorrection(chapterId);

  // Decision 69: the run is confirmed with the number of copies it will grade.
  const [confirmAuto, setConfirmAuto] = useState(false);
  const autoCount = useAutoCorrectionCount(chapterId, confirmAuto);
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

  function followCellLink(event: MouseEvent<HTMLDivElement>) {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[data-cell]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(link.getAttribute('href')!);
  }

  // The export needs every pupil: the whole table, asked for on click.
  const [exporting, setExporting] = useState(false);
  async function exportCsv() {
    setExporting(true);
    try {
      const whole = await fetchWholeTable();
      downloadCsv(resultsFileName(whole.chapter.title), resultsCsvRows(sortRows(buildRows(whole), byLastName, 'asc'), whole.exercises, whole.maxTotal));
    } catch (error) {
      console.error(error);
    } finally {
      setExporting(false);
    }
  }

  const columns = useMemo<VirtualColumn<GradingRow>[]>(
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
          // Decision 141: the title wraps (three lines, then cut) and shows whole in a tooltip on hover and on focus. It wraps
          // between words, hyphenated in French, never inside one (decision 141). The button's name is its visible text
          // with what it does before and the counts in words after (axe's label-content-name-mismatch, decision 141).
          <Tooltip label={exercise.title} events={{ hover: true, focus: true, touch: false }} multiline maw={320} withinPortal>
            <UnstyledButton
              onClick={() => openNext(exercise._id)}
              disabled={selecting !== null}
              lang="fr"
              data-exercise-header=""
              style={{ display: 'block', width: '100%', textAlign: 'center', fontWeight: 700, ...WRAP_AT_SPACES }}
            >
              <VisuallyHidden>Corriger la copie suivante :</VisuallyHidden>{' '}
              <Text span inherit lineClamp={3}>
                {exercise.title}
              </Text>
              {counts ? (
                <Text span size="xs" fw={400} display="block">
                  {counts[i].graded} / {counts[i].answered}
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
              {counts && (
                <VisuallyHidden>
                  {`(${counts[i].graded} ${counts[i].graded > 1 ? 'corrigées' : 'corrigée'} sur ${counts[i].answered} ${counts[i].answered > 1 ? 'réponses' : 'réponse'})`}
                </VisuallyHidden>
              )}
            </UnstyledButton>
          </Tooltip>
        ),
        cell: (r) => (
          <GradeCell row={r} exerciseId={exercise._id} exerciseTitle={exercise.title} value={r.data[i]} pagesAdded={r.pagesAdded?.includes(i) ?? false} />
        ),
      })),
    ],
    [exercises, counts, selecting, openNext, table.maxTotal, table.chapter.doubleGrading],
  );

  return (
    <Stack gap="sm">
      <PageHeading>Correction : {chapter.title}</PageHeading>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <TextInput
          label="Rechercher par nom ou prénom"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
          w={320}
        />
        <Group gap="md">
          <Text aria-live="polite">
            {matched ?? '…'}/{pupils ?? '…'} élèves
          </Text>
          <Text>
            {overall ? `${overall.graded}/${overall.answered}` : '…'} copies corrigées
          </Text>
        </Group>
      </Group>
      <Group gap="sm">
        {chapter.offline && (
          <Anchor component={Link} to={paths.sorting(chapterId)}>
            Triage : {unlabeled.data ?? '…'} fichiers
          </Anchor>
        )}
        <Anchor component={Link} to={paths.overview(chapterId)}>
          Revue
        </Anchor>
        {roles.isAdmin && (
          <>
            <Button variant="light" leftSection={<IconDownload size={16} aria-hidden="true" />} loading={exporting} onClick={exportCsv}>
              Exporter en CSV
            </Button>
            <DownloadButton label="Exporter en XLSX" run={() => downloadChapterGradesXlsx(chapterId, chapter.title)} />
            <Button
              variant="light"
              leftSection={<IconRobot size={16} aria-hidden="true" />}
              loading={auto.isPending}
              onClick={() => setConfirmAuto(true)}
            >
              Correction automatique
            </Button>
          </>
        )}
      </Group>
      <ConfirmDialog
        opened={confirmAuto}
        title="Lancer la correction automatique ?"
        message={autoCount.data === undefined ? null : autoCorrectionMessage(autoCount.data)}
        confirmLabel="Lancer la correction"
        loading={auto.isPending}
        onCancel={() => setConfirmAuto(false)}
        onConfirm={() => {
          setConfirmAuto(false);
          auto.mutate();
        }}
      />
      {header?.progress && table.chapter.doubleGrading ? <ProgressCounts exercises={exercises} progress={header.progress} /> : null}
      {header?.correctors && header.correctors.length > 0 ? <CorrectorProgressLine correctors={header.correctors} /> : null}
      {roles.isAdmin && table.chapter.doubleGrading ? <ArbitrationList chapterId={chapterId} /> : null}
      {roles.isAdmin ? <AssignmentsPanel chapterId={chapterId} /> : null}
      {/* Cells are plain links (cheap to render by the hundred while scrolling); one handler keeps
          their navigation inside the app, and modified clicks (new tab) to the browser. */}
      <div onClick={followCellLink}>
        <VirtualTable
          rows={shown}
          columns={columns}
          rowKey={(r) => r.id}
          height={TABLE_HEIGHT}
          label={`Correction : ${chapter.title}`}
          emptyText={pupils === 0 || (pupils === undefined && !search) ? 'Aucun élève n’a encore répondu.' : 'Aucun élève ne correspond à la recherche.'}
          onEndReached={onEndReached}
          totalRows={deferredSearch === search ? matched : undefined}
        />
      </div>
      {loadingMore ? (
        <Text size="sm" c="dimmed" role="status">
          Chargement des élèves suivants…
        </Text>
      ) : null}
    </Stack>
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
  const what = kind === 'ungraded' ? 'à corriger' : kind === 'excused' ? 'X' : kind === 'arbitration' ? 'à arbitrer (≠)' : `note ${formatGrade(value)}`;
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
