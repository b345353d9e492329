import type { AnswerSaved, ErrorCode } from '@olympe/contract';
import type { QueuedAnswer, SendFailure } from './answer-queue';
import { GENERIC_ERROR_MESSAGE, api, isApiError } from '../api/client';

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

/** The server's codes for what may succeed later: its own failure or overload, and a token refused until the pupil logs in again. */
const RETRIED_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'internal',
  'unavailable',
  'rate_limited',
  'unauthorized',
  'session_expired',
]);

/**
 * Retry what may succeed later (no response, timeout, 5xx, 401 until the pupil logs in again,
 * 429); give up with the server's message on any other refusal (403 deadline, 400 bad value).
 * The server's refusals are told apart by their code; an answer without one is not the server's own (a proxy's
 * 502, a gateway's timeout page), read by its status.
 */
export function classifySaveError(error: unknown): SendFailure {
  if (!isApiError(error) || !error.response) return { retry: true };
  const { status, data } = error.response;
  const retry =
    error.code !== undefined ? RETRIED_CODES.has(error.code) : status >= 500 || status === 401 || status === 408 || status === 429;
  if (retry) return { retry: true };
  const message =
    data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
      ? (data as { message: string }).message
      : GENERIC_ERROR_MESSAGE;
  return { retry: false, message };
}
