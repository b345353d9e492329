import type { LabelResult, PageLabel, SortingPupil, SortingSelection } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { centerKeys } from './centers';
import { api } from './client';
import { gradingKeys } from './grading';

export const sortingKeys = {
  selection: (chapterId: string) => ['sorting', 'selection', chapterId] as const,
  pupils: (chapterId: string, query: string) => ['sorting', 'pupils', chapterId, query] as const,
};

/** GET /answer/unlabeled/select/{chapterId}: the copy reserved for the caller, or null when none is left. */
export async function selectCopy(chapterId: string): Promise<SortingSelection> {
  const { data } = await api.get<SortingSelection>(`/answer/unlabeled/select/${chapterId}`);
  return data ?? null;
}

/** GET /answer/unlabeled/pupils/{chapterId}?q=: pupils beyond the registered ones (at least 2 characters). */
export async function searchPupils(chapterId: string, query: string): Promise<SortingPupil[]> {
  const { data } = await api.get<SortingPupil[]>(`/answer/unlabeled/pupils/${chapterId}`, { params: { q: query } });
  return data;
}

/** POST /answer/label/{answerId}: one entry per page; the server's message is shown in green. */
export async function labelCopy(copyId: string, labels: PageLabel[]): Promise<LabelResult> {
  const { data } = await api.post<LabelResult>(`/answer/label/${copyId}`, labels);
  return data;
}

/**
 * The copy reserved for the caller. Asking reserves it, so nothing is asked before `started`; then it
 * is asked again every `renewMs`: the server hands the same copy back and renews the reservation.
 */
export const sortingSelectionQuery = (chapterId: string, started: boolean, renewMs: number) =>
  queryOptions({
    queryKey: sortingKeys.selection(chapterId),
    queryFn: () => selectCopy(chapterId),
    enabled: !!chapterId && started,
    refetchInterval: renewMs,
  });

export function useSortingSelection(chapterId: string, started: boolean, renewMs: number) {
  return useQuery(sortingSelectionQuery(chapterId, started, renewMs));
}

/** The server's search among every pupil, from 2 characters (the query is already normalised). */
export const pupilSearchQuery = (chapterId: string, query: string) =>
  queryOptions({
    queryKey: sortingKeys.pupils(chapterId, query),
    queryFn: () => searchPupils(chapterId, query),
    enabled: query.length >= 2,
    staleTime: 60_000,
  });

export function usePupilSearch(chapterId: string, query: string) {
  return useQuery(pupilSearchQuery(chapterId, query));
}

/**
 * Labels one copy. Pending until the next copy is on screen (the selection reloaded), so a second
 * press cannot send this one again; the grading table, the count of copies to sort and the school's list of scans
 * (which names the pupil of each sorted copy, decision 141) follow.
 */
export function useLabelCopy(chapterId: string, copyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (labels: PageLabel[]) => labelCopy(copyId, labels),
    onSuccess: async () => {
      void client.invalidateQueries({ queryKey: gradingKeys.unlabeled(chapterId) });
      void client.invalidateQueries({ queryKey: gradingKeys.table(chapterId) });
      void client.invalidateQueries({ queryKey: centerKeys.unlabeled(chapterId) });
      await client.invalidateQueries({ queryKey: sortingKeys.selection(chapterId) });
    },
  });
}
