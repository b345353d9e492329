import { normalizeText, PUPIL_SEARCH_LIMIT, type SortingPupil } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { MEMBERS_GROUP_ID, TEACHERS_GROUP_ID } from '../db/schema.js';

/** docs/product.md#design-3 Roles: a pupil is anyone who is neither admin, nor member, nor school staff. */
export const isPupilSql = (user: SQL) => sql`(NOT ${user}.is_admin AND NOT EXISTS (
  SELECT 1 FROM group_members gm WHERE gm.user_id = ${user}.id
    AND gm.group_id IN (${TEACHERS_GROUP_ID}::uuid, ${MEMBERS_GROUP_ID}::uuid)))`;

/** At most this many registered pupils travel with a copy; the search reaches the others. */
export const REGISTERED_PUPILS_LIMIT = 3000;

const pupilRow = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  grade: z.string().nullable(),
  birth_year: z.number().nullable(),
  institution_id: z.string().nullable(),
  institution_name: z.string().nullable(),
  registered: z.boolean(),
  at_center: z.boolean(),
});

/**
 * Pupils matching `where`, presented for the picker: registered to the chapter first, those of the
 * copy's centre before the others, then by last and first name.
 */
async function loadPupils(
  db: Tx,
  opts: { chapterId: string; centerId: string | null; where: SQL; limit: number },
): Promise<SortingPupil[]> {
  const found = await rows(
    db,
    pupilRow,
    sql`
    SELECT u.id, u.first_name, u.last_name, u.grade, extract(year FROM u.birth_date)::int AS birth_year, i.id AS institution_id, i.name AS institution_name,
      r.user_id IS NOT NULL AS registered,
      COALESCE(r.institution_id = ${opts.centerId}::uuid, FALSE) AS at_center
    FROM users u
    LEFT JOIN center_registrations r ON r.chapter_id = ${opts.chapterId}::uuid AND r.user_id = u.id
    LEFT JOIN institutions i ON i.id = u.institution_id
    WHERE ${isPupilSql(sql`u`)} AND ${opts.where}
    ORDER BY registered DESC, at_center DESC, lower(u.last_name), lower(u.first_name), u.id
    LIMIT ${opts.limit}`,
  );
  return found.map((r) => ({
    _id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    grade: r.grade,
    birthYear: r.birth_year === null ? null : Number(r.birth_year),
    institution: r.institution_id ? { _id: r.institution_id, name: r.institution_name ?? '' } : null,
    registered: r.registered,
    atCenter: r.at_center,
  }));
}

/** The pupils registered to a centre for the chapter, plus the ones the QR codes name. */
export async function registeredPupils(
  db: Tx,
  chapterId: string,
  centerId: string | null,
  suggestedIds: string[],
): Promise<SortingPupil[]> {
  const registered = await loadPupils(db, {
    chapterId,
    centerId,
    where: sql`u.id IN (SELECT user_id FROM center_registrations WHERE chapter_id = ${chapterId}::uuid)`,
    limit: REGISTERED_PUPILS_LIMIT,
  });
  const known = new Set(registered.map((p) => p._id));
  const missing = [...new Set(suggestedIds)].filter((id) => !known.has(id));
  if (missing.length === 0) return registered;
  const suggested = await loadPupils(db, {
    chapterId,
    centerId,
    where: sql`u.id = ANY(${`{${missing.join(',')}}`}::uuid[])`,
    limit: missing.length,
  });
  return [...registered, ...suggested];
}

/** Accent- and case-insensitive like the contract's normalizeText (NFD, marks dropped, lower case). */
const normalizedName = sql`regexp_replace(normalize(lower(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), NFD), ${'[\u0300-\u036f]'}, '', 'g')`;

/** GET /answer/unlabeled/pupils/{chapterId}?q=: every pupil whose first or last name holds every word. */
export async function searchPupils(db: Tx, chapterId: string, centerId: string | null, query: string): Promise<SortingPupil[]> {
  const words = normalizeText(query).split(' ').filter(Boolean);
  if (words.length === 0) return [];
  const where = sql.join(
    words.map((w) => sql`${normalizedName} LIKE ${`%${w.replace(/[\\%_]/g, '\\$&')}%`}`),
    sql` AND `,
  );
  return loadPupils(db, { chapterId, centerId, where, limit: PUPIL_SEARCH_LIMIT });
}
