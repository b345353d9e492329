import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { focusEvents } from '../db/schema.js';
import { loadChapterContext } from './service.js';

/**
 * POST /chapter/event/{chapterId}: docs/product.md#spec-4 focus tracking, kept only while the chapter is timed,
 * started and time remains; returns whether the event was stored.
 */
export async function recordFocusEvent(
  db: Db,
  auth: AuthContext,
  input: { chapterId: string; eventType: 'focus' | 'blur'; ip: string },
): Promise<boolean> {
  const ctx = await loadChapterContext(db, auth, input.chapterId);
  if (ctx.staff || !ctx.state.timed || ctx.state.status !== 'started') return false;
  await db.insert(focusEvents).values({ chapterId: input.chapterId, userId: auth.userId, eventType: input.eventType, ip: input.ip });
  return true;
}
