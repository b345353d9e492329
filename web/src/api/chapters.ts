import type { ChapterSummary } from '@olympe/contract';
import { api } from './client';

/** GET /chapter: the chapters the caller may see, for the sidebar's test lists. */
export async function fetchChapters(): Promise<ChapterSummary[]> {
  const { data } = await api.get<ChapterSummary[]>('/chapter');
  return data;
}
