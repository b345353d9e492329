import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { findChapter } from '../chapters/service.js';
import type { Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { centerRefusals, centers, institutions } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';

/** The reads the centres' use cases share (docs/architecture.md « Which query style when »). */

/** Centres only exist for paper chapters (docs/product.md#spec-2: the panels are shown on offline chapters). */
export async function findPaperChapter(db: Tx, chapterId: string) {
  const chapter = await findChapter(db, chapterId);
  if (!chapter.offline) throw badRequest('Ce chapitre n’est pas une épreuve papier.');
  return chapter;
}

export async function findInstitution(db: Tx, id: string) {
  const [row] = await db
    .select({ id: institutions.id, name: institutions.name, address: institutions.address })
    .from(institutions)
    .where(eq(institutions.id, id));
  if (!row) throw notFound('Établissement introuvable.');
  return row;
}

export async function findCenterRow(db: Tx, chapterId: string, institutionId: string) {
  const [row] = await db
    .select()
    .from(centers)
    .where(and(eq(centers.chapterId, chapterId), eq(centers.institutionId, institutionId)));
  return row ?? null;
}

/** Registrations of pupils from other schools at one centre (own pupils never count against places). */
export async function countOutside(db: Tx, chapterId: string, institutionId: string, exceptUserId?: string): Promise<number> {
  const row = await one(
    db,
    z.object({ n: column.number }),
    sql`
    SELECT count(*)::int AS n FROM center_registrations r JOIN users u ON u.id = r.user_id
    WHERE r.chapter_id = ${chapterId} AND r.institution_id = ${institutionId}
      AND u.institution_id IS DISTINCT FROM r.institution_id
      ${exceptUserId ? sql`AND r.user_id <> ${exceptUserId}` : sql``}`,
  );
  return Number(row?.n ?? 0);
}

/** A pupil as the centre's lists show them. */
export const memberRowShape = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  grade: z.string().nullable(),
  institution_id: z.string().nullable(),
  institution_name: z.string().nullable(),
  /** Epoch ms of a move to the current school after the chapter was created; null otherwise. */
  changed_ms: z.number().nullable().optional(),
  previous_id: z.string().nullable().optional(),
  previous_name: z.string().nullable().optional(),
  present: z.boolean().nullable().optional(),
});
export type MemberRow = z.output<typeof memberRowShape>;

const registeredRowShape = memberRowShape.extend({ center_id: z.string() });

export async function registeredUsers(db: Tx, chapterId: string, institutionId?: string) {
  return rows(
    db,
    registeredRowShape,
    sql`
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
    ORDER BY lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), u.id`,
  );
}

/** A school offered as a centre, with its centre row's fields when it answered. */
const optionRowShape = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  opened: z.boolean().nullable(),
  nb_places: z.number().nullable(),
  is_pole: z.boolean().nullable(),
  instructions: z.string().nullable(),
  has_center: z.boolean(),
  outside: column.number,
  sitting_at: column.dateOrNull,
  center_address: z.string().nullable(),
  room: z.string().nullable(),
  bring: z.string().nullable(),
  chapter_start: column.dateOrNull,
});
export type OptionRow = z.output<typeof optionRowShape>;

export async function loadOptionRows(db: Tx, chapterId: string, opts: { ownId: string | null; withRegistered: boolean; only?: string }) {
  return rows(
    db,
    optionRowShape,
    sql`
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
    ORDER BY i.name, i.id`,
  );
}

/** The centres that turned the caller away for this chapter. */
export async function refusalsOf(db: Tx, chapterId: string, userId: string) {
  return db
    .select({ id: institutions.id, name: institutions.name, at: centerRefusals.createdAt })
    .from(centerRefusals)
    .innerJoin(institutions, eq(institutions.id, centerRefusals.institutionId))
    .where(and(eq(centerRefusals.chapterId, chapterId), eq(centerRefusals.userId, userId)))
    .orderBy(asc(centerRefusals.createdAt));
}
