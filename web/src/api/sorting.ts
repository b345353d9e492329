import type { LabelResult, PageLabel, SortingPupil, SortingSelection } from '@olympe/contract';
import { api } from './client';

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
