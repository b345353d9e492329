import {
  CENTER_FULL_MESSAGE,
  type Center,
  type CenterMember,
  type CenterOption,
  type CenterOverview,
  type CenterPatch,
  type OverviewUser,
  type UserCenter,
} from '@olympe/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { matchAccessRule } from '../chapters/access.js';
import { chapterAccessFor, findChapter } from '../chapters/service.js';
import type { Db, Tx } from '../db/client.js';
import { one, rows } from '../db/query.js';
import {
  accessGroups,
  centerRefusals,
  centerRegistrations,
  centers,
  institutions,
  MEMBERS_GROUP_ID,
  TEACHERS_GROUP_ID,
  users,
} from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound, tooMany } from '../errors.js';
import { assertMayChooseCenter, assertMaySetPole, centerInstitutionOf } from './policies.js';
import { computeCenterStatus, isCenterValidated, isExtraOption, registrationVerdict, type CenterFacts } from './status.js';
import { audit } from '../db/audit.js';
import { queueCenterChange, queueConvocation, queueDeparture } from '../mail/notifications.js';
import { centerDayStats, detailsChange } from './attendance.js';
import { chapterStartOf, effectiveDetails, sittingFromWallClock } from './details.js';


/** Centres only exist for paper chapters (docs/product.md#spec-2: the panels are shown on offline chapters). */
async function findPaperChapter(db: Tx, chapterId: string) {
  const chapter = await findChapter(db, chapterId);
  if (!chapter.offline) throw badRequest('Ce chapitre n’est pas une épreuve papier.');
  return chapter;
}

async function findInstitution(db: Tx, id: string) {
  const [row] = await db
    .select({ id: institutions.id, name: institutions.name, address: institutions.address })
    .from(institutions)
    .where(eq(institutions.id, id));
  if (!row) throw notFound('Établissement introuvable.');
  return row;
}

async function findCenterRow(db: Tx, chapterId: string, institutionId: string) {
  const [row] = await db
    .select()
    .from(centers)
    .where(and(eq(centers.chapterId, chapterId), eq(centers.institutionId, institutionId)));
  return row ?? null;
}

/** Registrations of pupils from other schools at one centre (own pupils never count against places). */
async function countOutside(db: Tx, chapterId: string, institutionId: string, exceptUserId?: string): Promise<number> {
  const row = await one<{ n: number }>(db, sql`
    SELECT count(*)::int AS n FROM center_registrations r JOIN users u ON u.id = r.user_id
    WHERE r.chapter_id = ${chapterId} AND r.institution_id = ${institutionId}
      AND u.institution_id IS DISTINCT FROM r.institution_id
      ${exceptUserId ? sql`AND r.user_id <> ${exceptUserId}` : sql``}`);
  return Number(row?.n ?? 0);
}

const factsOf = (row: { opened: boolean | null; nbPlaces: number; isPole: boolean } | null): CenterFacts | null =>
  row ? { opened: row.opened, nbPlaces: row.nbPlaces, isPole: row.isPole } : null;

type MemberRow = {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  grade: string | null;
  institution_id: string | null;
  institution_name: string | null;
  center_id: string;
  /** Epoch ms of a move to the current school after the chapter was created; null otherwise. */
  changed_ms?: number | null;
  previous_id?: string | null;
  previous_name?: string | null;
  present?: boolean | null;
};

async function registeredUsers(db: Tx, chapterId: string, institutionId?: string): Promise<MemberRow[]> {
  return rows<MemberRow>(db, sql`
    SELECT u.id, u.email, u.first_name, u.last_name, u.grade, u.institution_id, i.name AS institution_name,
      r.institution_id AS center_id,
      CASE WHEN u.institution_changed_at > c.created_at THEN (extract(epoch FROM u.institution_changed_at) * 1000)::float8 END AS changed_ms,
      p.id AS previous_id, p.name AS previous_name, r.present
    FROM center_registrations r
    JOIN chapters c ON c.id = r.chapter_id
    JOIN users u ON u.id = r.user_id
    LEFT JOIN institutions i ON i.id = u.institution_id
    LEFT JOIN institutions p ON p.id = u.previous_institution_id
    WHERE r.chapter_id = ${chapterId} ${institutionId ? sql`AND r.institution_id = ${institutionId}` : sql``}
    ORDER BY lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), u.id`);
}

const presentMember = (r: Omit<MemberRow, 'center_id'>): CenterMember => ({
  _id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  grade: r.grade as CenterMember['grade'],
  institution: r.institution_id ? { _id: r.institution_id, name: r.institution_name ?? '' } : null,
  ...(typeof r.changed_ms === 'number'
    ? {
        schoolChange: {
          at: new Date(r.changed_ms).toISOString(),
          previous: r.previous_id ? { _id: r.previous_id, name: r.previous_name ?? '' } : null,
        },
      }
    : {}),
  present: r.present ?? null,
});

const presentOverviewUser = (r: Omit<MemberRow, 'center_id'>): OverviewUser => {
  const { schoolChange: _, present: __, ...member } = presentMember(r);
  return { ...member, email: r.email };
};

/** GET /center/{chapterId}: the centre of the caller's school (or the admin's chosen one) and its registered pupils. */
export async function getCenter(db: Db, auth: AuthContext, chapterId: string, requested?: string): Promise<Center> {
  const institutionId = centerInstitutionOf(auth, requested);
  await findPaperChapter(db, chapterId);
  const institution = await findInstitution(db, institutionId);
  const row = await findCenterRow(db, chapterId, institutionId);
  const members = await registeredUsers(db, chapterId, institutionId);
  const outside = members.filter((m) => m.institution_id !== institutionId).length;
  const [stats] = await centerDayStats(db, chapterId, institutionId);
  return {
    institution: { _id: institution.id, name: institution.name },
    opened: row?.opened ?? null,
    instructions: row?.instructions ?? '',
    nb_places: row?.nbPlaces ?? 0,
    isPole: row?.isPole ?? false,
    status: computeCenterStatus(factsOf(row), outside),
    members: members.map(presentMember),
    details: effectiveDetails(row, institution.address, await chapterStartOf(db, chapterId)),
    own: {
      sittingAt: row?.sittingAt ? row.sittingAt.toISOString() : null,
      address: row?.address ?? null,
      room: row?.room ?? '',
      bring: row?.bring ?? '',
    },
    stats: stats?.stats ?? { registered: 0, present: 0, absent: 0, copies: 0, pagesSorted: 0 },
  };
}

/** GET /center/users/{chapterId}: the pupils registered at the caller's centre. */
export async function listCenterMembers(db: Db, auth: AuthContext, chapterId: string, requested?: string): Promise<CenterMember[]> {
  const institutionId = centerInstitutionOf(auth, requested);
  await findPaperChapter(db, chapterId);
  await findInstitution(db, institutionId);
  return (await registeredUsers(db, chapterId, institutionId)).map(presentMember);
}

/**
 * PATCH /center/{chapterId}: the school's answer, instructions and places. Only an admin may mark
 * a pole centre. The update takes the centre row lock, so it serialises with registrations.
 */
export async function updateCenter(db: Db, auth: AuthContext, chapterId: string, patch: CenterPatch): Promise<void> {
  assertMaySetPole(auth, patch);
  const institutionId = centerInstitutionOf(auth, patch.institution);
  await findPaperChapter(db, chapterId);
  await findInstitution(db, institutionId);
  const set: Partial<typeof centers.$inferInsert> = {};
  if (patch.opened !== undefined) set.opened = patch.opened;
  if (patch.instructions !== undefined) set.instructions = patch.instructions;
  if (patch.nb_places !== undefined) set.nbPlaces = patch.nb_places;
  if (patch.isPole !== undefined) set.isPole = patch.isPole;
  if (patch.sittingAt !== undefined) set.sittingAt = sittingFromWallClock(patch.sittingAt);
  if (patch.address !== undefined) set.address = patch.address?.trim() ? patch.address.trim() : null;
  if (patch.room !== undefined) set.room = patch.room.trim();
  if (patch.bring !== undefined) set.bring = patch.bring.trim();
  await db.transaction(async (tx) => {
    const before = await findCenterRow(tx, chapterId, institutionId);
    const [after] = await tx
      .insert(centers)
      .values({ chapterId, institutionId, ...set })
      .onConflictDoUpdate({
        target: [centers.chapterId, centers.institutionId],
        set: Object.keys(set).length > 0 ? set : { chapterId },
      })
      .returning();
    // Registered pupils hear of a change of what they were told (decision 60), once per change.
    const change = detailsChange(before, after);
    if (change) {
      const at = new Date();
      await tx.update(centers).set({ detailsChangedAt: at }).where(eq(centers.id, after.id));
      await queueCenterChange(tx, { chapterId, institutionId, closed: change === 'closed', at });
    }
  });
}

type OptionRow = {
  id: string;
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  opened: boolean | null;
  nb_places: number | null;
  is_pole: boolean | null;
  instructions: string | null;
  has_center: boolean;
  outside: number;
  sitting_at: Date | string | null;
  center_address: string | null;
  room: string | null;
  bring: string | null;
  chapter_start: Date | string | null;
};

async function loadOptionRows(db: Tx, chapterId: string, opts: { ownId: string | null; withRegistered: boolean; only?: string }) {
  return rows<OptionRow>(db, sql`
    WITH counts AS (
      SELECT r.institution_id,
        count(*) FILTER (WHERE u.institution_id IS DISTINCT FROM r.institution_id)::int AS outside
      FROM center_registrations r JOIN users u ON u.id = r.user_id
      WHERE r.chapter_id = ${chapterId}
      GROUP BY r.institution_id
    )
    SELECT i.id, i.name, i.address, i.latitude, i.longitude,
      c.opened, c.nb_places, c.is_pole, c.instructions, (c.id IS NOT NULL) AS has_center,
      coalesce(k.outside, 0)::int AS outside,
      c.sitting_at, c.address AS center_address, c.room, c.bring,
      (SELECT min(g.access_start) FROM access_groups g WHERE g.chapter_id = ${chapterId}) AS chapter_start
    FROM institutions i
    LEFT JOIN centers c ON c.institution_id = i.id AND c.chapter_id = ${chapterId}
    LEFT JOIN counts k ON k.institution_id = i.id
    WHERE ${
      opts.only
        ? sql`i.id = ${opts.only}`
        : sql`c.id IS NOT NULL ${opts.ownId ? sql`OR i.id = ${opts.ownId}` : sql``}
          ${opts.withRegistered ? sql`OR k.institution_id IS NOT NULL` : sql``}`
    }
    ORDER BY i.name, i.id`);
}

async function viewerOf(db: Tx, auth: AuthContext) {
  const [me] = await db.select({ defaultChoice: users.defaultChoice }).from(users).where(eq(users.id, auth.userId));
  return { isAdmin: auth.isAdmin, defaultChoice: me?.defaultChoice ?? null, institutionId: auth.institutionId };
}

function presentOption(r: OptionRow, viewer: Awaited<ReturnType<typeof viewerOf>>): CenterOption {
  const facts: CenterFacts | null = r.has_center
    ? { opened: r.opened, nbPlaces: Number(r.nb_places ?? 0), isPole: !!r.is_pole }
    : null;
  const status = computeCenterStatus(facts, Number(r.outside));
  return {
    _id: r.id,
    name: r.name,
    address: r.address,
    latitude: r.latitude,
    longitude: r.longitude,
    status,
    // docs/product.md#spec-4: instructions only once the centre is open (a pole centre is open to all).
    instructions: isCenterValidated(facts) ? (r.instructions ?? '') : '',
    details: isCenterValidated(facts)
      ? effectiveDetails(
          { sittingAt: r.sitting_at, address: r.center_address, room: r.room ?? '', bring: r.bring ?? '' },
          r.address,
          r.chapter_start,
        )
      : null,
    own: r.id === viewer.institutionId,
    extra: isExtraOption(viewer, { institutionId: r.id, status }),
  };
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
  const rows = await loadOptionRows(db, chapterId, { ownId: auth.institutionId, withRegistered: auth.isAdmin });
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
  const refusals = await refusalsOf(db, chapterId, auth.userId);
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

/**
 * PATCH /center/user/{chapterId}: registers the caller at a centre, or moves them (which frees
 * their previous place). docs/product.md#design-3: the status is checked in the transaction that writes, under
 * the centre row's lock, so concurrent pupils never take the same last place.
 */
export async function registerAtCenter(db: Db, auth: AuthContext, chapterId: string, institutionId: string, now = new Date()): Promise<void> {
  assertMayChooseCenter(auth);
  await chapterAccessFor(db, auth, chapterId, now);
  await findPaperChapter(db, chapterId);
  await db.transaction(async (tx) => {
    // The pupil's row first (then the centre's, as everywhere): two moves of one pupil count in turn.
    await tx.execute(sql`SELECT id FROM users WHERE id = ${auth.userId} FOR UPDATE`);
    await findInstitution(tx, institutionId);
    const row = await one<{ opened: boolean | null; nb_places: number; is_pole: boolean }>(tx, sql`
      SELECT opened, nb_places, is_pole FROM centers
      WHERE chapter_id = ${chapterId} AND institution_id = ${institutionId} FOR UPDATE`);
    const facts = row ? { opened: row.opened, nbPlaces: Number(row.nb_places), isPole: row.is_pole } : null;
    const refused = await rows(tx, sql`
      SELECT 1 FROM center_refusals WHERE chapter_id = ${chapterId} AND institution_id = ${institutionId} AND user_id = ${auth.userId}`);
    if (refused.length > 0) throw forbidden(REFUSED_MESSAGE);
    // The pupil's school is read inside the transaction too: a profile change cannot slip between.
    const [me] = await tx.select({ institutionId: users.institutionId }).from(users).where(eq(users.id, auth.userId));
    const own = !!me?.institutionId && me.institutionId === institutionId;
    const outside = await countOutside(tx, chapterId, institutionId, auth.userId);
    const status = computeCenterStatus(facts, outside);
    const verdict = registrationVerdict(status, own);
    if (!verdict.ok) throw badRequest(verdict.message);
    if (verdict.checkPlaces && status === 'full') throw conflict(CENTER_FULL_MESSAGE);
    const written = await rows<{ created_ms: number }>(tx, sql`
      INSERT INTO center_registrations (chapter_id, user_id, institution_id) VALUES (${chapterId}, ${auth.userId}, ${institutionId})
      ON CONFLICT (chapter_id, user_id) DO UPDATE SET institution_id = EXCLUDED.institution_id, created_at = now(),
        present = NULL, attendance_at = NULL, attendance_by = NULL
      WHERE center_registrations.institution_id IS DISTINCT FROM EXCLUDED.institution_id
      RETURNING (extract(epoch FROM created_at) * 1000)::float8 AS created_ms`);
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
  const counts = await one<{ chapter: number; total: number }>(tx, sql`
    SELECT count(*) FILTER (WHERE chapter_id = ${chapterId})::int AS chapter, count(*)::int AS total
    FROM center_moves WHERE user_id = ${userId} AND created_at > now() - interval '1 day'`);
  if (Number(counts?.chapter ?? 0) >= CENTER_MOVES_PER_CHAPTER) throw tooMany(TOO_MANY_MOVES_MESSAGE);
  if (Number(counts?.total ?? 0) >= CENTER_MOVES_PER_DAY) throw tooMany(TOO_MANY_MOVES_IN_ALL_MESSAGE);
  await tx.execute(sql`DELETE FROM center_moves WHERE user_id = ${userId} AND created_at <= now() - interval '1 day'`);
  await tx.execute(sql`INSERT INTO center_moves (user_id, chapter_id) VALUES (${userId}, ${chapterId})`);
}

export const REFUSED_MESSAGE = 'Ce centre a refusé votre inscription : choisissez un autre centre d’examen.';

/**
 * POST /center/refuse/{chapterId}: the centre's staff turn away a registered pupil who claims their
 * school (own pupils always fit, so such a claim passes a full centre). Pupils of other schools hold
 * the places the centre opened and cannot be turned away. The pupil is told on their centre panel and by mail
 * and cannot register at this centre again for this chapter; the refusal is in the audit log.
 */
export async function refuseRegistration(db: Db, auth: AuthContext, chapterId: string, userId: string, requested?: string): Promise<void> {
  const institutionId = centerInstitutionOf(auth, requested);
  await findPaperChapter(db, chapterId);
  await db.transaction(async (tx) => {
    const row = await one<{ institution_id: string | null; created_ms: number }>(tx, sql`
      SELECT u.institution_id, (extract(epoch FROM r.created_at) * 1000)::float8 AS created_ms
      FROM center_registrations r JOIN users u ON u.id = r.user_id
      WHERE r.chapter_id = ${chapterId} AND r.institution_id = ${institutionId} AND r.user_id = ${userId} FOR UPDATE OF r`);
    if (!row) throw notFound('Cet élève n’est pas inscrit dans ce centre.');
    if (row.institution_id !== institutionId) {
      throw badRequest('Seuls les élèves qui se déclarent de votre établissement peuvent être refusés : les autres occupent les places que vous avez ouvertes.');
    }
    await tx.delete(centerRegistrations).where(and(eq(centerRegistrations.chapterId, chapterId), eq(centerRegistrations.userId, userId)));
    await tx.insert(centerRefusals).values({ chapterId, institutionId, userId, refusedBy: auth.userId }).onConflictDoNothing();
    await audit(tx, auth, 'center.refuse', userId, { chapterId, institutionId });
    // The pupil hears of it by mail too (same transaction: never lost, never twice).
    await queueDeparture(tx, { chapterId, userId, institutionId, registeredMs: Number(row.created_ms), reason: 'refused' });
  });
}

/** The centres that turned the caller away for this chapter. */
async function refusalsOf(db: Tx, chapterId: string, userId: string) {
  const rows = await db
    .select({ id: institutions.id, name: institutions.name, at: centerRefusals.createdAt })
    .from(centerRefusals)
    .innerJoin(institutions, eq(institutions.id, centerRefusals.institutionId))
    .where(and(eq(centerRefusals.chapterId, chapterId), eq(centerRefusals.userId, userId)))
    .orderBy(asc(centerRefusals.createdAt));
  return rows.map((r) => ({ institution: { _id: r.id, name: r.name }, at: r.at.toISOString() }));
}

/**
 * GET /center/overview/{chapterId} (admins): registrations grouped by centre, and the pupils who
 * may take the chapter (an access group admits them) but chose no centre yet.
 */
export async function getCenterOverview(db: Db, chapterId: string): Promise<CenterOverview> {
  await findPaperChapter(db, chapterId);
  const registered = await registeredUsers(db, chapterId);
  const centerRows = await loadOptionRows(db, chapterId, { ownId: null, withRegistered: true });
  const statsOf = new Map((await centerDayStats(db, chapterId)).map((s) => [s.institutionId, s.stats]));
  const byCenter = new Map<string, OverviewUser[]>();
  for (const r of registered) {
    const list = byCenter.get(r.center_id) ?? [];
    list.push(presentOverviewUser(r));
    byCenter.set(r.center_id, list);
  }
  const members = centerRows
    .filter((c) => byCenter.has(c.id))
    .map((c) => {
      const facts: CenterFacts | null = c.has_center
        ? { opened: c.opened, nbPlaces: Number(c.nb_places ?? 0), isPole: !!c.is_pole }
        : null;
      return {
        institution: { _id: c.id, name: c.name },
        validated: isCenterValidated(facts),
        opened: facts?.opened ?? null,
        isPole: facts?.isPole ?? false,
        status: computeCenterStatus(facts, Number(c.outside)),
        members: byCenter.get(c.id) ?? [],
        stats: statsOf.get(c.id) ?? { registered: 0, present: 0, absent: 0, copies: 0, pagesSorted: 0 },
      };
    });

  const rules = await db.select().from(accessGroups).where(eq(accessGroups.chapterId, chapterId)).orderBy(asc(accessGroups.position));
  const unregistered = (
    await rows<Omit<MemberRow, 'center_id'> & { gender: string | null; birth_date: string | null }>(db, sql`
    SELECT u.id, u.email, u.first_name, u.last_name, u.grade, u.gender, u.birth_date::text AS birth_date, u.institution_id, i.name AS institution_name
    FROM users u LEFT JOIN institutions i ON i.id = u.institution_id
    WHERE NOT u.is_admin
      AND NOT EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = u.id AND m.group_id IN (${TEACHERS_GROUP_ID}, ${MEMBERS_GROUP_ID}))
      AND NOT EXISTS (SELECT 1 FROM center_registrations r WHERE r.user_id = u.id AND r.chapter_id = ${chapterId})
    ORDER BY lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), u.id`)
  )
    .filter((u) =>
      matchAccessRule(
        { gender: u.gender, grade: u.grade, birthDate: u.birth_date },
        rules,
      ),
    )
    .map(presentOverviewUser);
  return { unregistered, members };
}
