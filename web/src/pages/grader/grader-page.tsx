import { useCallback, useDeferredValue, useMemo, useState, type MouseEvent } from 'react';
import { Alert, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { useNavigate, useParams } from 'react-router';
import { normalizeText, type GradingTable } from '@olympe/contract';
import { useGradingHeader, useGradingPages } from '../../api/grading';
import { VirtualTable } from '../../components/VirtualTable';
import { useSession } from '../../session/session-context';
import { buildRows, filterRows, totalCounts } from './grading-table';
import { PageHeading } from '../../components/page-heading';
import { ArbitrationList, AssignmentsPanel, CorrectorProgressLine, ProgressCounts } from './progress-sections';
import { useGradingColumns } from './grading-columns';
import { GradingActions } from './grading-actions';

/** docs/product.md#spec-9: grading table height is the window height minus 200 px. */
const TABLE_HEIGHT = 'max(320px, calc(100vh - 200px))';

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
  const columns = useGradingColumns(table, counts);

  function followCellLink(event: MouseEvent<HTMLDivElement>) {
    const link = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[data-cell]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(link.getAttribute('href')!);
  }

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
          <Text>{overall ? `${overall.graded}/${overall.answered}` : '…'} copies corrigées</Text>
        </Group>
      </Group>
      <GradingActions chapterId={chapterId} chapter={chapter} />
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
          emptyText={
            pupils === 0 || (pupils === undefined && !search)
              ? 'Aucun élève n’a encore répondu.'
              : 'Aucun élève ne correspond à la recherche.'
          }
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
