import type { AnswerSaved, MyAnswer } from '@olympe/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueuedAnswer, SendFailure } from '../lib/answer-queue';
import { GENERIC_ERROR_MESSAGE, api, isApiError } from './client';

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

/**
 * POST /answer. Autosaves are silent (`skipNotifications`): the page shows the per-exercise
 * state instead of a notification per keystroke or per retry.
 */
export async function saveAnswer(entry: Pick<QueuedAnswer, 'exerciseId' | 'answer' | 'seq'>, quiet = true): Promise<AnswerSaved> {
  const { data } = await api.post<AnswerSaved>(
    '/answer',
    { exerciseId: entry.exerciseId, answer: entry.answer, seq: entry.seq },
    { skipNotifications: quiet },
  );
  return data;
}

/**
 * Retry what may succeed later (no response, timeout, 5xx, 401 until the pupil logs in again,
 * 429); give up with the server's message on any other refusal (403 deadline, 400 bad value).
 */
export function classifySaveError(error: unknown): SendFailure {
  if (!isApiError(error) || !error.response) return { retry: true };
  const { status, data } = error.response;
  if (status >= 500 || status === 401 || status === 408 || status === 429) return { retry: true };
  const message = data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string' ? (data as { message: string }).message : GENERIC_ERROR_MESSAGE;
  return { retry: false, message };
}
