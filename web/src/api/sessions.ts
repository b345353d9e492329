import type { Receipt, SessionStateView } from '@olympe/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { answerKeys } from './answers';
import { api } from './client';
import { exerciseKeys } from './exercises';

export const sessionKeys = {
  state: (chapterId: string) => ['chapter-session', chapterId] as const,
  receipt: (chapterId: string) => ['chapter-receipt', chapterId] as const,
};

/** GET /chapter/start/{id}: status and remaining time, the server being the clock. */
export async function fetchSessionState(chapterId: string): Promise<SessionStateView> {
  const { data } = await api.get<SessionStateView>(`/chapter/start/${chapterId}`);
  return data;
}

/** POST /chapter/start/{id}: starts a timed chapter (idempotent). */
export async function startChapter(chapterId: string): Promise<SessionStateView> {
  const { data } = await api.post<SessionStateView>(`/chapter/start/${chapterId}`);
  return data;
}

/** POST /chapter/event/{chapterId}: focus tracking (docs/product.md#spec-8: failures are only logged, no notification). */
export async function sendFocusEvent(chapterId: string, eventType: 'focus' | 'blur'): Promise<void> {
  await api.post(`/chapter/event/${chapterId}`, { eventType }, { skipNotifications: true });
}

/** POST /chapter/finish/{id}: ends the pupil's running timed test now (« Terminer l'épreuve »). */
export async function finishChapter(chapterId: string): Promise<SessionStateView> {
  const { data } = await api.post<SessionStateView>(`/chapter/finish/${chapterId}`);
  return data;
}

/** GET /chapter/receipt/{id}: the pupil's receipt once the test is over. */
export async function fetchReceipt(chapterId: string): Promise<Receipt> {
  const { data } = await api.get<Receipt>(`/chapter/receipt/${chapterId}`);
  return data;
}

export const sessionStateQuery = (chapterId: string) =>
  queryOptions({ queryKey: sessionKeys.state(chapterId), queryFn: () => fetchSessionState(chapterId) });

/** The pupil's session state of one chapter (status, time left from the server's clock). */
export function useSessionState(chapterId: string) {
  return useQuery(sessionStateQuery(chapterId));
}

export const receiptQuery = (chapterId: string) =>
  queryOptions({ queryKey: sessionKeys.receipt(chapterId), queryFn: () => fetchReceipt(chapterId) });

/** The pupil's receipt of a timed test once it is over (decision 44). */
export function useReceipt(chapterId: string) {
  return useQuery(receiptQuery(chapterId));
}

/**
 * What the chapter page shows reloads from the server: the session state, the exercises and the
 * pupil's answers (at the end of the countdown, after a start or a finish). The promise says when
 * they are back; the page does not wait for it.
 */
export function useReloadChapter(chapterId: string) {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: sessionKeys.state(chapterId) }),
        client.invalidateQueries({ queryKey: exerciseKeys.page(chapterId) }),
        client.invalidateQueries({ queryKey: answerKeys.mine(chapterId) }),
      ]),
    [client, chapterId],
  );
}

/** Starts a timed chapter; the chapter page reloads after (not awaited: the modal closes at once). */
export function useStartChapter(chapterId: string) {
  const reload = useReloadChapter(chapterId);
  return useMutation({
    mutationFn: () => startChapter(chapterId),
    onSuccess: () => void reload(),
  });
}

/**
 * Ends the pupil's running timed test now. `prepare` runs first (the page sends what the device
 * still holds, and throws to finish nothing); the state the server answers is shown at once and the
 * chapter page reloads after.
 */
export function useFinishChapter(chapterId: string, prepare: () => Promise<void>) {
  const client = useQueryClient();
  const reload = useReloadChapter(chapterId);
  return useMutation({
    mutationFn: async () => {
      await prepare();
      return finishChapter(chapterId);
    },
    onSuccess: (next) => {
      client.setQueryData(sessionKeys.state(chapterId), next);
      void reload();
    },
  });
}
