import type { SessionStateView } from '@olympe/contract';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { chapterSessions } from '../db/schema.js';
import { conflict, forbidden } from '../errors.js';
import { presentSessionState } from './presenters.js';
import { loadChapterContext } from './service.js';
import { computeSessionState } from './state.js';
import { audit } from '../db/audit.js';

export const STAFF_FINISH_MESSAGE = 'Seuls les élèves qui passent l’épreuve peuvent la terminer.';
export const NOT_STARTED_FINISH_MESSAGE = 'Vous n’avez pas commencé cette épreuve : il n’y a rien à terminer.';
export const ALREADY_OVER_MESSAGE = 'L’épreuve est déjà terminée.';
export const UNTIMED_FINISH_MESSAGE = 'Cette épreuve n’est pas en temps limité : elle ne se termine pas avant sa fermeture.';

/**
 * POST /chapter/finish/{id}: the pupil ends their running timed session now (« Terminer
 * l'épreuve »). From then on their answers are read-only: the session's deadline is the finish
 * (sessions/state.ts), and end_time follows so that the live page and the running-session checks
 * see it over (decision 43).
 */
export async function finishChapter(db: Db, auth: AuthContext, chapterId: string): Promise<SessionStateView> {
  const now = new Date();
  const ctx = await loadChapterContext(db, auth, chapterId, now);
  if (ctx.staff) throw forbidden(STAFF_FINISH_MESSAGE);
  if (ctx.state.status === 'after') throw conflict(ALREADY_OVER_MESSAGE);
  if (!ctx.state.timed || ctx.chapter.offline) throw conflict(UNTIMED_FINISH_MESSAGE);
  if (ctx.state.status !== 'started' || !ctx.session || !ctx.rule) throw conflict(NOT_STARTED_FINISH_MESSAGE);
  const finished = await db.transaction(async (tx) => {
    // Two finishes at once: the second finds the session already finished and is told so.
    const rows = await tx
      .update(chapterSessions)
      .set({ finishedAt: now, endTime: now })
      .where(and(eq(chapterSessions.chapterId, chapterId), eq(chapterSessions.userId, auth.userId), isNull(chapterSessions.finishedAt)))
      .returning({ userId: chapterSessions.userId });
    if (rows.length === 0) return false;
    await audit(tx, auth, 'session.finish', auth.userId, { chapterId, remainingSeconds: ctx.state.remainingTime });
    return true;
  });
  if (!finished) throw conflict(ALREADY_OVER_MESSAGE);
  const session = { ...ctx.session, endTime: now, finishedAt: now };
  return presentSessionState({ ...ctx, session, state: computeSessionState({ now, rule: ctx.rule, session, allowance: ctx.allowance }) });
}

/** The context of a pupil's chapter as they would load it themselves (staff checking a receipt, an extension). */
export const pupilAuth = (userId: string): AuthContext => ({
  userId,
  isAdmin: false,
  isMember: false,
  isTeacher: false,
  institutionId: null,
});

/**
 * After an incident extension (allowances.ts): a finished session reopens (the admin's decision wins over the
 * pupil's finish, decision 43) and its end_time becomes the deadline the state computes again.
 */
export async function reopenFinishedSession(db: Db, chapterId: string, userId: string): Promise<void> {
  const rows = await db
    .update(chapterSessions)
    .set({ finishedAt: null })
    .where(and(eq(chapterSessions.chapterId, chapterId), eq(chapterSessions.userId, userId), isNotNull(chapterSessions.finishedAt)))
    .returning({ userId: chapterSessions.userId });
  if (rows.length === 0) return;
  try {
    const ctx = await loadChapterContext(db, pupilAuth(userId), chapterId);
    if (ctx.state.deadline) {
      await db
        .update(chapterSessions)
        .set({ endTime: ctx.state.deadline })
        .where(and(eq(chapterSessions.chapterId, chapterId), eq(chapterSessions.userId, userId)));
    }
  } catch {
    // A pupil who lost access meanwhile (profile now incomplete): end_time keeps the finish; their
    // state is computed from the rule whenever they can load it again.
  }
}
