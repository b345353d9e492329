import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';

/**
 * The set-based reads of the analysis (docs/product.md#design-3 "Cheat analysis"), run together, never one per
 * pupil. Events and answer rows travel as one text per pupil (far cheaper for node-postgres than one row each,
 * as bench/grading found).
 */

/** Instants travel as epoch milliseconds so PGlite and node-postgres give the same numbers. */
const ms = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000)::float8`;

export const FIELD = '\x1e';
export const RECORD = '\x1f';

const pupilRowShape = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  gender: z.string().nullable(),
  grade: z.string().nullable(),
  birth_date: z.string().nullable(),
  started_ms: z.number().nullable(),
  end_ms: z.number().nullable(),
  extra_time_percent: z.number().nullable(),
  extension_minutes: z.number().nullable(),
});
export type PupilRow = z.output<typeof pupilRowShape>;

const ruleRowShape = z.object({
  authorized_genders: z.array(z.string()).nullable(),
  authorized_grades: z.array(z.string()).nullable(),
  birth_date_min: z.string().nullable(),
  birth_date_max: z.string().nullable(),
  time_duration: z.number().nullable(),
  start_ms: z.number().nullable(),
  end_ms: z.number().nullable(),
});
export type RuleRow = z.output<typeof ruleRowShape>;

const chapterFilterOf = (chapterId: string) =>
  sql`e.chapter_id = ${chapterId}::uuid AND e.answer_format <> 'none' AND e.deleted_at IS NULL`;

/** Exercise positions in table order, the same order as the exercises query below. */
const exerciseIndexOf = (chapterId: string) => sql`ex AS (
    SELECT e.id, e.answer_format, (row_number() OVER (ORDER BY e.position, e.created_at, e.id) - 1)::int AS idx
    FROM exercises e WHERE ${chapterFilterOf(chapterId)})`;

export const chapterRows = (db: Db, chapterId: string) =>
  rows(
    db,
    z.object({ id: z.string(), title: z.string() }),
    sql`SELECT id, title FROM chapters WHERE id = ${chapterId}::uuid AND deleted_at IS NULL`,
  );

export const ruleRows = (db: Db, chapterId: string) =>
  rows(
    db,
    ruleRowShape,
    sql`SELECT authorized_genders, authorized_grades, birth_date_min::text AS birth_date_min, birth_date_max::text AS birth_date_max,
            time_duration, ${ms(sql`access_start`)} AS start_ms, ${ms(sql`access_end`)} AS end_ms
          FROM access_groups WHERE chapter_id = ${chapterId}::uuid ORDER BY position`,
  );

export const exerciseRows = (db: Db, chapterId: string) =>
  rows(
    db,
    z.object({ id: z.string(), title: z.string(), answer_format: z.string(), expected: z.array(z.string().nullable()).nullable() }),
    sql`SELECT e.id, e.title, e.answer_format,
            array_agg(v.answer ORDER BY v.position, v.id) FILTER (WHERE v.id IS NOT NULL) AS expected
          FROM exercises e LEFT JOIN statement_versions v ON v.exercise_id = e.id
          WHERE ${chapterFilterOf(chapterId)}
          GROUP BY e.id ORDER BY e.position, e.created_at, e.id`,
  );

/** "b<ms> <ip>" per event, in time order. */
export const eventRows = (db: Db, chapterId: string) =>
  rows(
    db,
    z.object({ user_id: z.string(), events: z.string() }),
    sql`SELECT user_id, string_agg(
              CASE event_type WHEN 'blur' THEN 'b' WHEN 'focus' THEN 'f' ELSE 'x' END
              || (extract(epoch FROM created_at) * 1000)::bigint || ${FIELD}::text || coalesce(ip, ''),
              ${RECORD}::text ORDER BY created_at, id) AS events
          FROM focus_events WHERE chapter_id = ${chapterId}::uuid GROUP BY user_id`,
  );

/** "idx first last count ip answer" per distinct (exercise, answer, ip); PDF paths reduced to a mark. */
export const answerGroupRows = (db: Db, chapterId: string) =>
  rows(
    db,
    z.object({ user_id: z.string(), groups: z.string() }),
    sql`WITH ${exerciseIndexOf(chapterId)}, g AS (
            SELECT a.user_id, ex.idx, a.ip,
              CASE WHEN ex.answer_format = 'numeric' THEN translate(a.answer, ${FIELD + RECORD}::text, '')
                   WHEN btrim(a.answer) <> '' THEN 'pdf' ELSE '' END AS answer,
              count(*)::int AS n, min(a.created_at) AS first, max(a.created_at) AS last
            FROM answers a JOIN ex ON ex.id = a.exercise_id
            WHERE a.withdrawn_at IS NULL
            GROUP BY 1, 2, 3, 4)
          SELECT user_id, string_agg(concat_ws(${FIELD}::text, idx, (extract(epoch FROM first) * 1000)::bigint,
              (extract(epoch FROM last) * 1000)::bigint, n, coalesce(ip, ''), answer), ${RECORD}::text) AS groups
          FROM g GROUP BY user_id`,
  );

/** The current answer per exercise (answers_current_idx order), "idx answer". */
export const currentRows = (db: Db, chapterId: string) =>
  rows(
    db,
    z.object({ user_id: z.string(), current: z.string() }),
    sql`WITH ${exerciseIndexOf(chapterId)}
          SELECT c.user_id, string_agg(ex.idx || ${FIELD}::text || translate(c.answer, ${FIELD + RECORD}::text, ''), ${RECORD}::text) AS current
          FROM ex CROSS JOIN LATERAL (
            SELECT DISTINCT ON (a.user_id) a.user_id, a.answer
            FROM answers a
            WHERE a.exercise_id = ex.id AND a.withdrawn_at IS NULL
            ORDER BY a.user_id, a.seq DESC, a.created_at DESC
          ) c
          GROUP BY c.user_id`,
  );

/** The pupils' names, the profile fields access rules read, and their session in the chapter. */
const pupilsQuery = (where: SQL, chapterId: string) => sql`
  SELECT u.id, u.first_name, u.last_name,
    -- A session keeps the profile it started with (sessions/service.ts): the same group decides its end here.
    CASE WHEN s.access_grade IS NOT NULL THEN s.access_gender ELSE u.gender END AS gender,
    CASE WHEN s.access_grade IS NOT NULL THEN s.access_grade ELSE u.grade END AS grade,
    CASE WHEN s.access_grade IS NOT NULL THEN s.access_birth_date ELSE u.birth_date END::text AS birth_date,
    ${ms(sql`s.started_at`)} AS started_ms, ${ms(sql`s.end_time`)} AS end_ms, u.extra_time_percent,
    (SELECT coalesce(sum(x.minutes), 0)::int FROM session_extensions x WHERE x.chapter_id = ${chapterId}::uuid AND x.user_id = u.id) AS extension_minutes
  FROM users u LEFT JOIN chapter_sessions s ON s.chapter_id = ${chapterId}::uuid AND s.user_id = u.id
  WHERE ${where}`;

/** The pupils with a session in the chapter. */
export const sessionPupilRows = (db: Db, chapterId: string) =>
  rows(
    db,
    pupilRowShape,
    pupilsQuery(sql`u.id IN (SELECT user_id FROM chapter_sessions WHERE chapter_id = ${chapterId}::uuid)`, chapterId),
  );

/** Named pupils (with events or answers but no session). */
export const pupilRowsById = (db: Db, chapterId: string, ids: string[]) =>
  rows(db, pupilRowShape, pupilsQuery(sql`u.id = ANY(${`{${ids.join(',')}}`}::uuid[])`, chapterId));
