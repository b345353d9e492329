import type { ChapterAnalysis } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { matchAccessRule, type AccessRule } from '../chapters/access.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { notFound } from '../errors.js';
import { computeDeadline } from '../sessions/state.js';
import { computeAnalysis, type AnalysisInput } from './compute.js';

/** Instants travel as epoch milliseconds so PGlite and node-postgres give the same numbers. */
const ms = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000)::float8`;

interface PupilRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  gender: string | null;
  grade: string | null;
  birth_date: string | null;
  started_ms: number | null;
  end_ms: number | null;
  extra_time_percent: number | null;
  extension_minutes: number | null;
}

/**
 * The pupil's deadline as the session rules see it now (sessions/state: the current access rule,
 * so an extended duration counts); the end fixed at start when no rule admits them any more.
 */
function deadlineOf(p: PupilRow, rules: AccessRule[]): number | null {
  const session = p.started_ms !== null ? { startedAt: new Date(p.started_ms) } : null;
  const rule = matchAccessRule({ gender: p.gender, grade: p.grade, birthDate: p.birth_date }, rules);
  if (!rule) return p.end_ms;
  const allowance = { extraTimePercent: Number(p.extra_time_percent ?? 0), extensionMinutes: Number(p.extension_minutes ?? 0) };
  return computeDeadline(rule, session, allowance)?.getTime() ?? null;
}

const FIELD = '\x1e';
const RECORD = '\x1f';

/** Splits an aggregated text column (null when the pupil has no row). */
const recordsOf = (text: string | null) => (text ? text.split(RECORD) : []);

/**
 * Everything the analysis of a chapter needs (docs/product.md#design-3 "Cheat analysis"), in set-based queries
 * run together (never one per pupil). Pupils are everyone with a session, a focus event or an
 * answer in the chapter. Events and answer rows travel as one text per pupil (far cheaper for
 * node-postgres than one row each, as bench/grading found); answer rows are grouped by (exercise,
 * text, ip) first: the first and last save of each text is all the figures need.
 */
export async function loadAnalysisInput(db: Db, chapterId: string, now = new Date()) {
  const chapterFilter = sql`e.chapter_id = ${chapterId}::uuid AND e.answer_format <> 'none' AND e.deleted_at IS NULL`;
  // Exercise positions in table order, the same order as the exercises query below.
  const ex = sql`ex AS (
    SELECT e.id, e.answer_format, (row_number() OVER (ORDER BY e.position, e.created_at, e.id) - 1)::int AS idx
    FROM exercises e WHERE ${chapterFilter})`;
  const [chapters, rules, exercises, sessions, events, groups, current] = await Promise.all([
    rows<{ id: string; title: string }>(db, sql`SELECT id, title FROM chapters WHERE id = ${chapterId}::uuid AND deleted_at IS NULL`),
    rows<RuleRow>(
      db,
      sql`SELECT authorized_genders, authorized_grades, birth_date_min::text AS birth_date_min, birth_date_max::text AS birth_date_max,
            time_duration, ${ms(sql`access_start`)} AS start_ms, ${ms(sql`access_end`)} AS end_ms
          FROM access_groups WHERE chapter_id = ${chapterId}::uuid ORDER BY position`,
    ),
    rows<{ id: string; title: string; answer_format: string; expected: Array<string | null> | null }>(
      db,
      sql`SELECT e.id, e.title, e.answer_format,
            array_agg(v.answer ORDER BY v.position, v.id) FILTER (WHERE v.id IS NOT NULL) AS expected
          FROM exercises e LEFT JOIN statement_versions v ON v.exercise_id = e.id
          WHERE ${chapterFilter}
          GROUP BY e.id ORDER BY e.position, e.created_at, e.id`,
    ),
    rows<PupilRow>(db, pupilsQuery(sql`u.id IN (SELECT user_id FROM chapter_sessions WHERE chapter_id = ${chapterId}::uuid)`, chapterId)),
    // "b<ms> <ip>" per event, in time order.
    rows<{ user_id: string; events: string }>(
      db,
      sql`SELECT user_id, string_agg(
              CASE event_type WHEN 'blur' THEN 'b' WHEN 'focus' THEN 'f' ELSE 'x' END
              || (extract(epoch FROM created_at) * 1000)::bigint || ${FIELD}::text || coalesce(ip, ''),
              ${RECORD}::text ORDER BY created_at, id) AS events
          FROM focus_events WHERE chapter_id = ${chapterId}::uuid GROUP BY user_id`,
    ),
    // "idx first last count ip answer" per distinct (exercise, answer, ip); PDF paths reduced to a mark.
    rows<{ user_id: string; groups: string }>(
      db,
      sql`WITH ${ex}, g AS (
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
    ),
    // The current answer per exercise (answers_current_idx order), "idx answer".
    rows<{ user_id: string; current: string }>(
      db,
      sql`WITH ${ex}
          SELECT c.user_id, string_agg(ex.idx || ${FIELD}::text || translate(c.answer, ${FIELD + RECORD}::text, ''), ${RECORD}::text) AS current
          FROM ex CROSS JOIN LATERAL (
            SELECT DISTINCT ON (a.user_id) a.user_id, a.answer
            FROM answers a
            WHERE a.exercise_id = ex.id AND a.withdrawn_at IS NULL
            ORDER BY a.user_id, a.seq DESC, a.created_at DESC
          ) c
          GROUP BY c.user_id`,
    ),
  ]);
  const [chapter] = chapters;
  if (!chapter) throw notFound('Chapitre introuvable.');

  // Pupils with events or answers but no session (an untimed chapter): one more lookup by id.
  const known = new Set(sessions.map((p) => p.id));
  const missing = [...new Set([...events.map((e) => e.user_id), ...groups.map((g) => g.user_id), ...current.map((c) => c.user_id)])].filter(
    (id) => !known.has(id),
  );
  const pupils = missing.length ? [...sessions, ...(await rows<PupilRow>(db, pupilsQuery(sql`u.id = ANY(${`{${missing.join(',')}}`}::uuid[])`, chapterId)))] : sessions;

  const accessRules = rules.map(ruleOf);
  const exerciseIds = exercises.map((e) => e.id);
  const input: AnalysisInput = {
    now: now.getTime(),
    exercises: exercises.map((e) => ({ id: e.id, answerFormat: e.answer_format, expected: e.expected ?? [] })),
    pupils: pupils.map((p) => ({
      id: p.id,
      firstName: p.first_name,
      lastName: p.last_name,
      startedAt: p.started_ms,
      deadline: deadlineOf(p, accessRules),
    })),
    events: events.flatMap((row) =>
      recordsOf(row.events).map((r) => {
        const sep = r.indexOf(FIELD);
        const type = r[0];
        return { userId: row.user_id, eventType: type === 'b' ? 'blur' : type === 'f' ? 'focus' : 'other', at: Number(r.slice(1, sep)), ip: r.slice(sep + 1) || null };
      }),
    ),
    answerGroups: groups.flatMap((row) =>
      recordsOf(row.groups).map((r) => {
        const [idx, first, last, n, ip, answer] = r.split(FIELD);
        return { userId: row.user_id, exerciseId: exerciseIds[Number(idx)], answer, ip: ip || null, count: Number(n), firstAt: Number(first), lastAt: Number(last) };
      }),
    ),
    current: current.flatMap((row) =>
      recordsOf(row.current).map((r) => {
        const sep = r.indexOf(FIELD);
        return { userId: row.user_id, exerciseId: exerciseIds[Number(r.slice(0, sep))], answer: r.slice(sep + 1) };
      }),
    ),
  };
  return {
    chapter: { _id: chapter.id, title: chapter.title },
    exercises: exercises.map((e) => ({ _id: e.id, title: e.title, answerFormat: e.answer_format })),
    input,
  };
}

/** GET /answer/analysis/{chapterId}: the rows, then one pass in compute.ts. */
export async function getChapterAnalysis(db: Db, chapterId: string, now = new Date()): Promise<ChapterAnalysis> {
  const { chapter, exercises, input } = await loadAnalysisInput(db, chapterId, now);
  return { chapter, exercises, ...computeAnalysis(input) };
}

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

interface RuleRow {
  authorized_genders: string[] | null;
  authorized_grades: string[] | null;
  birth_date_min: string | null;
  birth_date_max: string | null;
  time_duration: number | null;
  start_ms: number | null;
  end_ms: number | null;
}

const ruleOf = (r: RuleRow): AccessRule => ({
  authorizedGenders: r.authorized_genders ?? [],
  authorizedGrades: r.authorized_grades ?? [],
  birthDateMin: r.birth_date_min,
  birthDateMax: r.birth_date_max,
  timeDuration: r.time_duration,
  accessStart: r.start_ms === null ? null : new Date(r.start_ms),
  accessEnd: r.end_ms === null ? null : new Date(r.end_ms),
});
