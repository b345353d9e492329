import type { Receipt, SessionStateView } from '@olympe/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

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
