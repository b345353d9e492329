import { CENTER_FULL_MESSAGE, type CenterOption, type UserCenter } from '@olympe/contract';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { chapterAccessFor } from '../chapters/service.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { centerRegistrations, institutions, users } from '../db/schema.js';
import { badRequest, conflict, forbidden, tooMany } from '../errors.js';
import { queueConvocation } from '../mail/notifications.js';
import { assertMayChooseCenter, canSeeEveryCentre } from './policies.js';
import { presentOption, presentRefusals } from './presenters.js';
import { countOutside, findInstitution, findPaperChapter, loadOptionRows, refusalsOf } from './queries.js';
import type { Viewer } from './policies.js';
import { computeCenterStatus, registrationVerdict } from './status.js';

/** A pupil chooses their exam centre: the offer, their registration, a registration or a move. */

async function viewerOf(db: Tx, auth: AuthContext): Promise<Viewer> {
  const [me] = await db.select({ defaultChoice: users.defaultChoice }).from(users).where(eq(users.id, auth.userId));
  return { isAdmin: canSeeEveryCentre(auth), defaultChoice: me?.defaultChoice ?? null, institutionId: auth.institutionId };
}

/**
 * GET /center/institutions/{chapterId}: the schools that answered for this chapter, the caller's
 * own school, and (for admins) every school where pupils registered; each with its status and
 * whether it waits behind the "more possibilities" button for this caller.
 */
export async function listCenterOptions(db: Db, auth: AuthContext, chapterId: string, now = new Date()): Promise<CenterOption[]> {
  await chapterAccessFor(db, auth, chapterId, now);
  await findPaperChapter(db, chapterId);
  const viewer = await viewerOf(db, auth);
  const rows = await loadOptionRows(db, chapterId, { ownId: auth.institutionId, withRegistered: canSeeEveryCentre(auth) });
  return rows.map((r) => presentOption(r, viewer));
}

/** GET /center/user/{chapterId}: the caller's registration and its centre. */
export async function getUserCenter(db: Db, auth: AuthContext, chapterId: string, now = new Date()): Promise<UserCenter> {
  await chapterAccessFor(db, auth, chapterId, now);
  await findPaperChapter(db, chapterId);
  const [reg] = await db
    .select({ institutionId: centerRegistrations.institutionId, name: institutions.name, createdAt: centerRegistrations.createdAt })
    .from(centerRegistrations)
    .innerJoin(institutions, eq(institutions.id, centerRegistrations.institutionId))
    .where(and(eq(centerRegistrations.chapterId, chapterId), eq(centerRegistrations.userId, auth.userId)));
  const refusals = presentRefusals(await refusalsOf(db, chapterId, auth.userId));
  if (!reg) return { registration: null, center: null, refusals };
  const viewer = await viewerOf(db, auth);
  const [row] = await loadOptionRows(db, chapterId, { ownId: null, withRegistered: false, only: reg.institutionId });
  return {
    registration: {
      institution: { _id: reg.institutionId, name: reg.name },
      createdAt: reg.createdAt.toISOString(),
    },
    center: row ? presentOption(row, viewer) : null,
    refusals,
  };
}

export const REFUSED_MESSAGE = 'Ce centre a refusé votre inscription : choisissez un autre centre d’examen.';

/** Whether the pupil may take a place at this centre now, read under the centre row's lock; throws when not. */
async function assertPlaceFree(tx: Tx, auth: AuthContext, chapterId: string, institutionId: string): Promise<void> {
  const row = await one(
    tx,
    z.object({ opened: z.boolean().nullable(), nb_places: z.number(), is_pole: z.boolean() }),
    sql`
    SELECT opened, nb_places, is_pole FROM centers
    WHERE chapter_id = ${chapterId} AND institution_id = ${institutionId} FOR UPDATE`,
  );
  const facts = row ? { opened: row.opened, nbPlaces: Number(row.nb_places), isPole: row.is_pole } : null;
  const refused = await rows(
    tx,
    z.object({}),
    sql`
    SELECT 1 FROM center_refusals WHERE chapter_id = ${chapterId} AND institution_id = ${institutionId} AND user_id = ${auth.userId}`,
  );
  if (refused.length > 0) throw forbidden(REFUSED_MESSAGE);
  // The pupil's school is read inside the transaction too: a profile change cannot slip between.
  const [me] = await tx.select({ institutionId: users.institutionId }).from(users).where(eq(users.id, auth.userId));
  const own = !!me?.institutionId && me.institutionId === institutionId;
  const outside = await countOutside(tx, chapterId, institutionId, auth.userId);
  const status = computeCenterStatus(facts, outside);
  const verdict = registrationVerdict(status, own);
  if (!verdict.ok) throw badRequest(verdict.message);
  if (verdict.checkPlaces && status === 'full') throw conflict(CENTER_FULL_MESSAGE);
}

/**
 * PATCH /center/user/{chapterId}: registers the caller at a centre, or moves them (which frees
 * their previous place). docs/product.md#design-3: the status is checked in the transaction that writes, under
 * the centre row's lock, so concurrent pupils never take the same last place.
 */
export async function registerAtCenter(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  institutionId: string,
  now = new Date(),
): Promise<void> {
  assertMayChooseCenter(auth);
  await chapterAccessFor(db, auth, chapterId, now);
  await findPaperChapter(db, chapterId);
  await db.transaction(async (tx) => {
    // The pupil's row first (then the centre's, as everywhere): two moves of one pupil count in turn.
    await tx.execute(sql`SELECT id FROM users WHERE id = ${auth.userId} FOR UPDATE`);
    await findInstitution(tx, institutionId);
    await assertPlaceFree(tx, auth, chapterId, institutionId);
    const written = await rows(
      tx,
      z.object({ created_ms: z.number() }),
      sql`
      INSERT INTO center_registrations (chapter_id, user_id, institution_id) VALUES (${chapterId}, ${auth.userId}, ${institutionId})
      ON CONFLICT (chapter_id, user_id) DO UPDATE SET institution_id = EXCLUDED.institution_id, created_at = now(),
        present = NULL, attendance_at = NULL, attendance_by = NULL
      WHERE center_registrations.institution_id IS DISTINCT FROM EXCLUDED.institution_id
      RETURNING (extract(epoch FROM created_at) * 1000)::float8 AS created_ms`,
    );
    if (!written[0]) return;
    // Throwing here undoes the write above: past the limit, nothing changes and no mail leaves.
    await countCenterMove(tx, auth.userId, chapterId);
    // A new or moved registration: its convocation goes out by mail (same transaction: never lost, never twice).
    await queueConvocation(tx, { chapterId, userId: auth.userId, institutionId, registeredMs: Number(written[0].created_ms) });
  });
}

/**
 * Decision 134: each registration or move mails the convocation to the pupil and their confirmed
 * family, so a pupil writes at most 5 per chapter and 10 in all in any 24 hours — at most 10
 * convocation mails a day to any one of their addresses.
 */
export const CENTER_MOVES_PER_CHAPTER = 5;
const CENTER_MOVES_PER_DAY = 10;
export const TOO_MANY_MOVES_MESSAGE = `Vous avez changé de centre d’examen trop souvent pour cette épreuve (${CENTER_MOVES_PER_CHAPTER} fois en 24 heures). Réessayez demain.`;
export const TOO_MANY_MOVES_IN_ALL_MESSAGE = `Vous avez changé de centre d’examen trop souvent (${CENTER_MOVES_PER_DAY} fois en 24 heures, toutes épreuves confondues). Réessayez demain.`;

async function countCenterMove(tx: Tx, userId: string, chapterId: string): Promise<void> {
  const counts = await one(
    tx,
    z.object({ chapter: column.number, total: column.number }),
    sql`
    SELECT count(*) FILTER (WHERE chapter_id = ${chapterId})::int AS chapter, count(*)::int AS total
    FROM center_moves WHERE user_id = ${userId} AND created_at > now() - interval '1 day'`,
  );
  if (Number(counts?.chapter ?? 0) >= CENTER_MOVES_PER_CHAPTER) throw tooMany(TOO_MANY_MOVES_MESSAGE);
  if (Number(counts?.total ?? 0) >= CENTER_MOVES_PER_DAY) throw tooMany(TOO_MANY_MOVES_IN_ALL_MESSAGE);
  await tx.execute(sql`DELETE FROM center_moves WHERE user_id = ${userId} AND created_at <= now() - interval '1 day'`);
  await tx.execute(sql`INSERT INTO center_moves (user_id, chapter_id) VALUES (${userId}, ${chapterId})`);
}
