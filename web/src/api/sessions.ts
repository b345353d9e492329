import type { ChapterPage, SessionStateView } from '@olympe/contract';
import { api } from './client';

export const sessionKeys = {
  state: (chapterId: string) => ['chapter-session', chapterId] as const,
  page: (chapterId: string) => ['chapter-page', chapterId] as const,
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

/**
 * GET /exos/chapter/{id}: header and exercises (empty until the caller may read them).
 * TODO(lead): move to web/src/api/exercises.ts if the authoring module exports the same call.
 */
export async function fetchChapterPage(chapterId: string): Promise<ChapterPage> {
  const { data } = await api.get<ChapterPage>(`/exos/chapter/${chapterId}`);
  return data;
}

/** POST /chapter/event/{chapterId}: focus tracking (SPEC §8: failures are only logged, no notification). */
export async function sendFocusEvent(chapterId: string, eventType: 'focus' | 'blur'): Promise<void> {
  await api.post(`/chapter/event/${chapterId}`, { eventType }, { skipNotifications: true });
}
