import type {
  AnswerHistory,
  ArbitrationRow,
  Assignments,
  AssignmentsSave,
  AutoCorrectionResult,
  GradeConflict,
  GradeSave,
  GradeSaved,
  GradingOptions,
  GradingTable,
  OverviewPage,
  OverviewRow,
  OverviewSort,
  SelectedAnswer,
} from '@olympe/contract';
import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { chapterKeys } from './chapters';
import { api, isApiError } from './client';

export const gradingKeys = {
  table: (chapterId: string) => ['grading', 'table', chapterId] as const,
  /** Under `table`: invalidating the table reloads its pages too. */
  pages: (chapterId: string, q: string) => ['grading', 'table', chapterId, 'pages', q] as const,
  header: (chapterId: string, q: string) => ['grading', 'table', chapterId, 'header', q] as const,
  unlabeled: (chapterId: string) => ['grading', 'unlabeled', chapterId] as const,
  history: (userId: string, exerciseId: string) => ['grading', 'history', userId, exerciseId] as const,
  overview: (chapterId: string) => ['grading', 'overview', chapterId] as const,
  /** Under `overview`: reloading the overview reloads its pages and counts. */
  overviewPages: (chapterId: string, view: OverviewView) => ['grading', 'overview', chapterId, 'pages', view] as const,
  overviewCounts: (chapterId: string, filters: OverviewView['filters']) => ['grading', 'overview', chapterId, 'counts', filters] as const,
  arbitration: (chapterId: string) => ['grading', 'arbitration', chapterId] as const,
  assignments: (chapterId: string) => ['grading', 'assignments', chapterId] as const,
};

/** GET /answer/table/{id}: exercises in order and the pupils keyed by id. */
export async function fetchGradingTable(chapterId: string): Promise<GradingTable> {
  const { data } = await api.get<GradingTable>(`/answer/table/${chapterId}`);
  return data;
}

/** Pupils per page of the grading table (decision 83): a few screens of rows, ~50 KB. */
export const GRADING_PAGE_SIZE = 200;

/** GET /answer/table/{id}?limit=&after=&q= (decision 83): one page of pupils. */
export async function fetchGradingPage(chapterId: string, params: { after: string | null; q: string }): Promise<GradingTable> {
  const { data } = await api.get<GradingTable>(`/answer/table/${chapterId}`, {
    params: { limit: GRADING_PAGE_SIZE, ...(params.after ? { after: params.after } : {}), ...(params.q ? { q: params.q } : {}) },
  });
  return data;
}

/** GET /answer/table/{id}?limit=0&q= (decision 83): the header alone (counts, progress, correctors, pupils), beside the pages. */
export async function fetchGradingHeader(chapterId: string, q: string): Promise<GradingTable> {
  const { data } = await api.get<GradingTable>(`/answer/table/${chapterId}`, { params: { limit: 0, ...(q ? { q } : {}) } });
  return data;
}

/** GET /answer/unlabeled/stats/{id}: scanned copies still to sort. */
export async function fetchUnlabeledCount(chapterId: string): Promise<number> {
  const { data } = await api.get<{ count: number }>(`/answer/unlabeled/stats/${chapterId}`);
  return data.count;
}

/** GET /answer/select/{exerciseId}: the next copy to grade ("{userId}/{exerciseId}"), or a message. */
export async function selectNextAnswer(exerciseId: string): Promise<SelectedAnswer> {
  const { data } = await api.get<SelectedAnswer>(`/answer/select/${exerciseId}`);
  return data;
}

/** POST /answer/auto/{chapterId} (admins); the server's message is shown in green. */
export async function runAutoCorrection(chapterId: string): Promise<AutoCorrectionResult> {
  const { data } = await api.post<AutoCorrectionResult>(`/answer/auto/${chapterId}`);
  return data;
}

/** The grading table's pages (decision 83), loaded as the table scrolls; a new search keeps the rows in view until it answers. */
export function useGradingPages(chapterId: string, q: string) {
  return useInfiniteQuery({
    queryKey: gradingKeys.pages(chapterId, q),
    queryFn: ({ pageParam }) => fetchGradingPage(chapterId, { after: pageParam, q }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.page?.next ?? undefined,
    placeholderData: keepPreviousData,
    enabled: !!chapterId,
  });
}

/** The grading table's header (`limit=0`): the chapter-wide counts; also read by the « À corriger » list. */
export const gradingHeaderQuery = (chapterId: string, q: string) =>
  queryOptions({ queryKey: gradingKeys.header(chapterId, q), queryFn: () => fetchGradingHeader(chapterId, q), enabled: !!chapterId });

/** The grading table's header beside its pages; a new search keeps the former counts until it answers. */
export function useGradingHeader(chapterId: string, q: string) {
  return useQuery({ ...gradingHeaderQuery(chapterId, q), placeholderData: keepPreviousData });
}

/** Scanned copies still to sort, for the « Triage » link of paper chapters. */
export function useUnlabeledCount(chapterId: string, enabled: boolean) {
  return useQuery({ queryKey: gradingKeys.unlabeled(chapterId), queryFn: () => fetchUnlabeledCount(chapterId), enabled });
}

/** Automatic correction (admins): the table reloads once it ran. */
export function useAutoCorrection(chapterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => runAutoCorrection(chapterId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gradingKeys.table(chapterId) }),
    onError: (error) => console.error(error),
  });
}

/** The whole table, fresh, for an export that needs every pupil (the page holds only what was scrolled to). */
export function useFetchWholeTable(chapterId: string) {
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({ queryKey: gradingKeys.table(chapterId), queryFn: () => fetchGradingTable(chapterId), staleTime: 0 });
}

/** GET /answer/history/{uid}/{eid}. */
export async function fetchHistory(userId: string, exerciseId: string): Promise<AnswerHistory> {
  const { data } = await api.get<AnswerHistory>(`/answer/history/${userId}/${exerciseId}`);
  return data;
}

export const historyQuery = (userId: string, exerciseId: string) =>
  queryOptions({
    queryKey: gradingKeys.history(userId, exerciseId),
    queryFn: () => fetchHistory(userId, exerciseId),
    enabled: !!userId && !!exerciseId,
  });

/** One pupil's answers to one exercise, with the grade block (the corrector's desk). */
export function useHistory(userId: string, exerciseId: string) {
  return useQuery(historyQuery(userId, exerciseId));
}

/**
 * The next copy of an exercise for the desk: the table behind is marked stale (it must show the
 * grade just given when the corrector goes back), then the server picks the copy.
 */
export function useNextCopy(chapterId: string) {
  const client = useQueryClient();
  return useCallback(
    async (exerciseId: string): Promise<SelectedAnswer> => {
      void client.invalidateQueries({ queryKey: gradingKeys.table(chapterId) });
      return selectNextAnswer(exerciseId);
    },
    [client, chapterId],
  );
}

export type GradeSaveOutcome = { ok: true; saved: GradeSaved } | { ok: false; conflict: GradeConflict };

/**
 * POST /answer/grade/, saved per edit: silent on success (the page shows "Enregistré"); a conflict
 * (another corrector saved in between) comes back as a value with the state now stored, its
 * message shown by the client in red. Other errors are thrown.
 */
export async function saveGrade(body: GradeSave): Promise<GradeSaveOutcome> {
  try {
    const { data } = await api.post<GradeSaved>('/answer/grade/', body, { skipNotifications: true });
    return { ok: true, saved: data };
  } catch (error) {
    if (isApiError(error) && error.code === 'conflict' && error.response) {
      return { ok: false, conflict: error.response.data as GradeConflict };
    }
    throw error;
  }
}

/** POST /answer/relabel/ (admins, PDF answers): sends the copy back to sorting. */
export async function relabelAnswer(answerId: string): Promise<void> {
  await api.post('/answer/relabel/', { answerId });
}

/**
 * The desk beside a copy reads its history again (after each grade saved: double-correction state,
 * the other grading once both are in; the server frees the copy for the next corrector).
 */
export function useReloadHistory(userId: string, exerciseId: string) {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: gradingKeys.history(userId, exerciseId) }), [client, userId, exerciseId]);
}

/** DELETE /answer/pages-added/{answerId} (decision 139): the corrector keeps the grade and removes the notice. */
export async function dismissPagesAdded(answerId: string): Promise<void> {
  await api.delete(`/answer/pages-added/${answerId}`);
}

/** Removes a copy's « pages ajoutées après la note » notice; its history and its chapter's grading table reload. */
export function useDismissPagesAdded(userId: string, exercise: { _id: string; chapter: string }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (answerId: string) => dismissPagesAdded(answerId),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: gradingKeys.history(userId, exercise._id) }),
        client.invalidateQueries({ queryKey: gradingKeys.table(exercise.chapter) }),
      ]);
    },
  });
}

/** Sends a copy of the chapter back to sorting; the grading table behind is marked stale after. */
export function useRelabelAnswer(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (answerId: string) => relabelAnswer(answerId),
    onSuccess: () => client.invalidateQueries({ queryKey: gradingKeys.table(chapterId) }),
  });
}

/** What the review page shows (decision 94): the server sorts and filters; the filters as typed. */
export interface OverviewView {
  sort: OverviewSort;
  dir: 'asc' | 'desc';
  filters: { student: string; grader: string; exercise: string };
}

/** Copies per page of the review page: a few screens of rows, ~80 KB. */
export const OVERVIEW_PAGE_SIZE = 200;

const filterParams = (filters: OverviewView['filters']) => Object.fromEntries(Object.entries(filters).filter(([, v]) => v.trim() !== ''));

/** GET /answer/overview/{chapterId}?limit=&offset=&sort=&dir=&… (decision 94): one page. */
export async function fetchOverviewPage(chapterId: string, view: OverviewView, offset: number): Promise<OverviewPage> {
  try {
    const { data } = await api.get<OverviewPage>(`/answer/overview/${chapterId}`, {
      params: { limit: OVERVIEW_PAGE_SIZE, offset, sort: view.sort, dir: view.dir, ...filterParams(view.filters) },
    });
    return data;
  } catch (error) {
    // docs/product.md#spec-8: a failed overview fetch is logged as "Failed to fetch data".
    console.error('Failed to fetch data', error);
    throw error;
  }
}

/** GET /answer/overview/{chapterId}?limit=0&…: the chapter's graded copies and those the filters keep. */
export async function fetchOverviewCounts(chapterId: string, filters: OverviewView['filters']): Promise<OverviewPage> {
  const { data } = await api.get<OverviewPage>(`/answer/overview/${chapterId}`, { params: { limit: 0, ...filterParams(filters) } });
  return data;
}

/** The review page's rows, a page at a time as the table scrolls; a new sort or filter keeps the rows in view until it answers. */
export function useOverviewPages(chapterId: string, view: OverviewView) {
  return useInfiniteQuery({
    queryKey: gradingKeys.overviewPages(chapterId, view),
    queryFn: ({ pageParam }) => fetchOverviewPage(chapterId, view, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: keepPreviousData,
    enabled: !!chapterId,
  });
}

/** The counts (« 12/480 corrections »), asked beside the first page so the rows never wait for them. */
export function useOverviewCounts(chapterId: string, filters: OverviewView['filters']) {
  return useQuery({
    queryKey: gradingKeys.overviewCounts(chapterId, filters),
    queryFn: () => fetchOverviewCounts(chapterId, filters),
    placeholderData: keepPreviousData,
    enabled: !!chapterId,
  });
}

/** Every graded copy, fresh, for the CSV export (the page holds only what was scrolled to). */
export function useFetchWholeOverview(chapterId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.fetchQuery({ queryKey: gradingKeys.overview(chapterId), queryFn: () => fetchOverview(chapterId), staleTime: 0 });
}

/** GET /answer/overview/{chapterId}. */
export async function fetchOverview(chapterId: string): Promise<OverviewRow[]> {
  // docs/product.md#spec-8: a failed overview fetch is logged as "Failed to fetch data".
  try {
    const { data } = await api.get<OverviewRow[]>(`/answer/overview/${chapterId}`);
    return data;
  } catch (error) {
    console.error('Failed to fetch data', error);
    throw error;
  }
}

// Decisions 62–64: arbitration, assignments of exercises to correctors, grading options of a chapter.

/** GET /answer/arbitration/{chapterId} (admins): copies whose two grades are too far apart. */
export async function fetchArbitration(chapterId: string): Promise<ArbitrationRow[]> {
  const { data } = await api.get<ArbitrationRow[]>(`/answer/arbitration/${chapterId}`);
  return data;
}

export const arbitrationQuery = (chapterId: string, enabled = true) =>
  queryOptions({
    queryKey: gradingKeys.arbitration(chapterId),
    queryFn: () => fetchArbitration(chapterId),
    enabled: enabled && !!chapterId,
  });

export function useArbitration(chapterId: string, enabled: boolean) {
  return useQuery(arbitrationQuery(chapterId, enabled));
}

/** GET /chapter/{id}/assignments: who grades which exercise (an empty list: anyone). */
export async function fetchAssignments(chapterId: string): Promise<Assignments> {
  const { data } = await api.get<Assignments>(`/chapter/${chapterId}/assignments`);
  return data;
}

export const assignmentsQuery = (chapterId: string, enabled = true) =>
  queryOptions({
    queryKey: gradingKeys.assignments(chapterId),
    queryFn: () => fetchAssignments(chapterId),
    enabled: enabled && !!chapterId,
  });

export function useAssignments(chapterId: string, enabled: boolean) {
  return useQuery(assignmentsQuery(chapterId, enabled));
}

/** One chapter's data for the « À corriger » list (decision 141): its grading table header and its assignments. */
export interface ChapterWork {
  chapterId: string;
  header: GradingTable | undefined;
  assignments: Assignments | undefined;
  pending: boolean;
  failed: boolean;
}

/** Whether a grading table header counts copies answered and not graded yet. */
const hasWaiting = (header: GradingTable | undefined) => !!header?.page?.counts?.some((c) => c.answered > c.graded);

/**
 * The « À corriger » list's data, from the routes the grading table already reads (no route of its own), in the same
 * cache entries as the grading table's header. The assignments only tell which exercises are another corrector's:
 * they are asked for a member's chapters with copies waiting, never for an admin, who takes any copy.
 */
export function useChaptersWork(chapterIds: readonly string[], isAdmin: boolean): ChapterWork[] {
  const headers = useQueries({ queries: chapterIds.map((id) => gradingHeaderQuery(id, '')) });
  const needed = chapterIds.map((_, i) => !isAdmin && hasWaiting(headers[i]?.data));
  const assignments = useQueries({ queries: chapterIds.map((id, i) => assignmentsQuery(id, needed[i])) });
  return chapterIds.map((chapterId, i) => ({
    chapterId,
    header: headers[i]?.data,
    assignments: assignments[i]?.data,
    pending: !!headers[i]?.isPending || (needed[i] && !!assignments[i]?.isPending),
    failed: !!headers[i]?.isError || !!assignments[i]?.isError,
  }));
}

/** PUT /chapter/{id}/assignments (admins): replaces the chapter's assignments. */
export async function saveAssignments(chapterId: string, body: AssignmentsSave): Promise<void> {
  await api.put(`/chapter/${chapterId}/assignments`, body);
}

export function useSaveAssignments(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AssignmentsSave) => saveAssignments(chapterId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: gradingKeys.assignments(chapterId) }),
    onError: (error) => console.error(error),
  });
}

/** PATCH /chapter/{id} with the grading options (admins): anonymous, double correction and its tolerance. */
export async function saveGradingOptions(chapterId: string, body: Partial<GradingOptions>, quiet = false): Promise<void> {
  await api.patch(`/chapter/${chapterId}`, body, { skipNotifications: quiet });
}

export function useSaveGradingOptions(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<GradingOptions>) => saveGradingOptions(chapterId, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: chapterKeys.detail(chapterId) });
      void client.invalidateQueries({ queryKey: gradingKeys.table(chapterId) });
    },
    onError: (error) => console.error(error),
  });
}
