import type { SessionStateView } from '@olympe/contract';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { chapterSessions } from '../db/schema.js';
import { forbidden } from '../errors.js';
import { presentSessionState } from './presenters.js';
import { getChapterSessionState, loadChapterContext } from './service.js';
import { computeDeadline, computeSessionState, FINISHED_MESSAGE, NOT_YET_MESSAGE } from './state.js';

/**
 * POST /chapter/start/{id}: records the start of a timed chapter once (a second call changes
 * nothing) with the server's clock; refused before the window opens and after it closed.
 */
export async function startChapter(db: Db, auth: AuthContext, chapterId: string): Promise<SessionStateView> {
  const now = new Date();
  const ctx = await loadChapterContext(db, auth, chapterId, now);
  if (ctx.state.status === 'before') throw forbidden(NOT_YET_MESSAGE);
  if (ctx.state.status === 'after') throw forbidden(FINISHED_MESSAGE, 'test_finished');
  if (ctx.state.status === 'pending' && ctx.rule) {
    const endTime = computeDeadline(ctx.rule, { startedAt: now }, ctx.allowance);
    const inserted = await db
      .insert(chapterSessions)
      .values({
        chapterId,
        userId: auth.userId,
        startedAt: now,
        endTime,
        accessGender: ctx.accessProfile.gender,
        accessGrade: ctx.accessProfile.grade,
        accessBirthDate: ctx.accessProfile.birthDate,
      })
      .onConflictDoNothing({ target: [chapterSessions.chapterId, chapterSessions.userId] })
      .returning({ startedAt: chapterSessions.startedAt });
    // Our row is the session: its state follows without reading it back. A concurrent start won: read it.
    if (inserted.length === 0) return getChapterSessionState(db, auth, chapterId);
    const session = { startedAt: now, endTime, finishedAt: null };
    return presentSessionState({ ...ctx, session, state: computeSessionState({ now, rule: ctx.rule, session, allowance: ctx.allowance }) });
  }
  return presentSessionState(ctx);
}
