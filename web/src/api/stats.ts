import type { ChapterStats, Errata, ErrataResult } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export const statsKeys = {
  chapter: (chapterId: string) => ['stats', chapterId] as const,
};

/** GET /stats/{chapterId} (correctors and admins). */
export async function fetchChapterStats(chapterId: string): Promise<ChapterStats> {
  const { data } = await api.get<ChapterStats>(`/stats/${chapterId}`);
  return data;
}

/** POST /stats/{chapterId}/errata (admins): a version's new expected answer and its automatic correction. */
export async function applyErrata(chapterId: string, body: Errata): Promise<ErrataResult> {
  const { data } = await api.post<ErrataResult>(`/stats/${chapterId}/errata`, body);
  return data;
}

export const chapterStatsQuery = (chapterId: string) =>
  queryOptions({ queryKey: statsKeys.chapter(chapterId), queryFn: () => fetchChapterStats(chapterId), enabled: !!chapterId });

export function useChapterStats(chapterId: string) {
  return useQuery(chapterStatsQuery(chapterId));
}

export function useApplyErrata(chapterId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Errata) => applyErrata(chapterId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: statsKeys.chapter(chapterId) }),
  });
}
