import type { ChapterAnalysis } from '@olympe/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

export const analysisKeys = {
  chapter: (chapterId: string) => ['analysis', chapterId] as const,
};

/** GET /answer/analysis/{chapterId} (admins): individual figures and suspicious pairs per IP address. */
export async function fetchChapterAnalysis(chapterId: string): Promise<ChapterAnalysis> {
  const { data } = await api.get<ChapterAnalysis>(`/answer/analysis/${chapterId}`);
  return data;
}

export const chapterAnalysisQuery = (chapterId: string) =>
  queryOptions({ queryKey: analysisKeys.chapter(chapterId), queryFn: () => fetchChapterAnalysis(chapterId), enabled: !!chapterId });

export function useChapterAnalysis(chapterId: string) {
  return useQuery(chapterAnalysisQuery(chapterId));
}
