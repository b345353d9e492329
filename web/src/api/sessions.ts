import type { SessionStateView } from '@olympe/contract';
import { api } from './client';

export const sessionKeys = {
  state: (chapterId: string) => ['chapter-session', chapterId] as const,
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

/** POST /chapter/event/{chapterId}: focus tracking (SPEC §8: failures are only logged, no notification). */
export async function sendFocusEvent(chapterId: string, eventType: 'focus' | 'blur'): Promise<void> {
  await api.post(`/chapter/event/${chapterId}`, { eventType }, { skipNotifications: true });
}
