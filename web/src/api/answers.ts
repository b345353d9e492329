import type { MyAnswer } from '@olympe/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

export const answerKeys = {
  mine: (chapterId: string) => ['my-answers', chapterId] as const,
};

/** GET /answer/chapter/{id}: the caller's current answers (grades only once published). */
export async function fetchMyAnswers(chapterId: string): Promise<MyAnswer[]> {
  const { data } = await api.get<MyAnswer[]>(`/answer/chapter/${chapterId}`);
  return data;
}

export const myAnswersQuery = (chapterId: string, enabled = true) =>
  queryOptions({ queryKey: answerKeys.mine(chapterId), queryFn: () => fetchMyAnswers(chapterId), enabled });

/** The caller's current answers to a chapter, read only when `enabled` (the exercises are shown). */
export function useMyAnswers(chapterId: string, enabled: boolean) {
  return useQuery(myAnswersQuery(chapterId, enabled));
}
