import type { AccessGroup, ChapterDetail, ChapterSummary } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** GET /chapter: the chapters the caller may see, for the sidebar's test lists. */
export async function fetchChapters(): Promise<ChapterSummary[]> {
  const { data } = await api.get<ChapterSummary[]>('/chapter');
  return data;
}

export const chapterKeys = {
  all: ['chapters'] as const,
  detail: (id: string) => ['chapters', id] as const,
};

/** GET /chapter/{id}: for admins, with the access groups and both instructions. */
export async function fetchChapter(id: string): Promise<ChapterDetail> {
  const { data } = await api.get<ChapterDetail>(`/chapter/${id}`);
  return data;
}

export interface ChapterFields {
  title: string;
  analysis: boolean;
  offline: boolean;
}

/**
 * The /chapters page saves several rows in one go: each call can be made without its own
 * notification (`quiet`) so that the page shows a single outcome.
 */
export async function createChapter(body: ChapterFields, quiet = false): Promise<ChapterSummary> {
  const { data } = await api.post<ChapterSummary>('/chapter', body, { skipNotifications: quiet });
  return data;
}

/** PATCH /chapter/{id} (docs/product.md#spec-7): headers; or title/flags (only the changed ones); or access groups. */
export type ChapterUpdate = Partial<ChapterFields> | { headerStudents?: string; headerCenters?: string } | { groups: AccessGroup[] };

export async function updateChapter(id: string, body: ChapterUpdate, quiet = false): Promise<void> {
  await api.patch(`/chapter/${id}`, body, { skipNotifications: quiet });
}

export async function deleteChapter(id: string, quiet = false): Promise<void> {
  await api.delete(`/chapter/${id}`, { skipNotifications: quiet });
}

export const chaptersQuery = queryOptions({ queryKey: chapterKeys.all, queryFn: fetchChapters });

/** The chapters the caller may see (the /chapters table for admins). */
export function useChapters() {
  return useQuery(chaptersQuery);
}

export const chapterQuery = (id: string) =>
  queryOptions({ queryKey: chapterKeys.detail(id), queryFn: () => fetchChapter(id), enabled: !!id });

/** One chapter as admins see it (access groups, both instructions). */
export function useChapter(id: string) {
  return useQuery(chapterQuery(id));
}

/**
 * PATCH /chapter/{id}, not quiet (the server's message, or the client's error notice, tells the
 * outcome); the chapter reloads after a success, before the mutation stops pending.
 */
export function useUpdateChapter(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ChapterUpdate) => updateChapter(id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: chapterKeys.detail(id) }),
  });
}
