import type { Extension } from '@olympe/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { findChapter } from '../chapters/service.js';
import type { Db } from '../db/client.js';
import { chapterSessions, sessionExtensions, users } from '../db/schema.js';
import { notFound } from '../errors.js';
import { reopenFinishedSession } from './finish.js';
import { audit } from '../db/audit.js';

async function findUser(db: Db, by: { id: string } | { email: string }) {
  const [user] = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      extraTimePercent: users.extraTimePercent,
    })
    .from(users)
    .where('id' in by ? eq(users.id, by.id) : eq(users.email, by.email));
  if (!user) throw notFound('email' in by ? `Aucun compte n’a l’adresse ${by.email}.` : 'Utilisateur introuvable.');
  return user;
}

const nameOf = (u: { firstName: string | null; lastName: string | null; email: string }) =>
  `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.email;

/**
 * PUT /user/{uid}/extra-time (admins): a pupil's extra time in percent of every timed chapter's
 * duration (sessions/state.ts extraMs), effective at once, sessions already running included.
 */
export async function setExtraTime(db: Db, auth: AuthContext, userId: string, percent: number): Promise<string> {
  const user = await findUser(db, { id: userId });
  await db.transaction(async (tx) => {
    await tx.update(users).set({ extraTimePercent: percent }).where(eq(users.id, userId));
    await audit(tx, auth, 'user.extra-time', userId, { percent, previous: user.extraTimePercent });
  });
  return percent === 0
    ? `Temps supplémentaire retiré pour ${nameOf(user)}`
    : `Temps supplémentaire de ${percent} % enregistré pour ${nameOf(user)}`;
}

/**
 * POST /chapter/{chapterId}/extension (admins): adds minutes to one pupil's end in one chapter after
 * an incident, even once it passed or the pupil finished early (the session reopens, decision 43).
 * Written with who and why, and to the audit log.
 */
export async function addExtension(db: Db, auth: AuthContext, chapterId: string, input: Extension): Promise<string> {
  await findChapter(db, chapterId);
  const user = await findUser(db, input.user ? { id: input.user } : { email: input.email! });
  const actorId = auth.actorId ?? auth.userId;
  await db.transaction(async (tx) => {
    await tx
      .insert(sessionExtensions)
      .values({ chapterId, userId: user.id, minutes: input.minutes, reason: input.reason, createdBy: actorId });
    // The end fixed at start moves too: the live counts and the running-session checks read it.
    // A finished session's end_time is its finish: reopenFinishedSession sets it once the finish is cleared.
    await tx
      .update(chapterSessions)
      .set({ endTime: sql`${chapterSessions.endTime} + ${input.minutes} * interval '1 minute'` })
      .where(and(eq(chapterSessions.chapterId, chapterId), eq(chapterSessions.userId, user.id), isNull(chapterSessions.finishedAt)));
    await audit(tx, auth, 'session.extension', user.id, { chapterId, minutes: input.minutes, reason: input.reason });
  });
  await reopenFinishedSession(db, chapterId, user.id);
  return `${input.minutes} minute${input.minutes > 1 ? 's' : ''} ajoutée${input.minutes > 1 ? 's' : ''} pour ${nameOf(user)}`;
}
