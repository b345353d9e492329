import { z } from 'zod';
import { authColumnsSql, type AuthContext } from '../auth/context.js';
import { queryRows, type Db } from '../db/client.js';
import { qualifiedSqlText } from '../selections/qualification.js';

/** The session context's statements (hot path, bench/rush/README.md): named raw SQL, one prepared statement each. */

const ruleJsonShape = z.record(z.string(), z.unknown());

/** The chapter context's row: instants as epoch milliseconds (float8), numbers on both drivers. */
export const contextRowShape = z.object({
  chapter_id: z.string(),
  title: z.string(),
  offline: z.boolean(),
  analysis: z.boolean(),
  publish_ms: z.number().nullable(),
  exercise_id: z.string().nullable(),
  answer_format: z.string().nullable(),
  user_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  gender: z.string().nullable(),
  grade: z.string().nullable(),
  birth_date: z.string().nullable(),
  default_choice: z.string().nullable(),
  email_parent: z.string().nullable(),
  is_admin: z.boolean().nullable(),
  institution_name: z.string().nullable(),
  started_ms: z.number().nullable(),
  end_ms: z.number().nullable(),
  finished_ms: z.number().nullable(),
  access_gender: z.string().nullable(),
  access_grade: z.string().nullable(),
  access_birth_date: z.string().nullable(),
  extra_time_percent: z.number().nullable(),
  extension_minutes: z.number().nullable(),
  rules: z.union([z.array(ruleJsonShape), z.string(), z.null()]),
});
export type ContextRow = z.output<typeof contextRowShape>;

/**
 * The caller's side of a chapter context, for users row `u` = ${user}: profile, session of chapter
 * `c`, and the chapter's access groups in table order. Instants travel as epoch milliseconds so
 * PGlite and node-postgres give the same values.
 */
const callerColumnsSql = `u.id AS user_id, u.first_name, u.last_name, u.gender, u.grade, u.birth_date::text AS birth_date,
    u.default_choice, u.email_parent, u.is_admin, i.name AS institution_name,
    (extract(epoch FROM s.started_at) * 1000)::float8 AS started_ms,
    (extract(epoch FROM s.end_time) * 1000)::float8 AS end_ms,
    (extract(epoch FROM s.finished_at) * 1000)::float8 AS finished_ms,
    s.access_gender, s.access_grade, s.access_birth_date::text AS access_birth_date,
    u.extra_time_percent,
    (SELECT coalesce(sum(x.minutes), 0)::int FROM session_extensions x WHERE x.chapter_id = c.id AND x.user_id = u.id) AS extension_minutes,
    (SELECT json_agg(json_build_object(
        'authorizedGenders', g.authorized_genders, 'authorizedGrades', g.authorized_grades,
        'birthDateMin', g.birth_date_min::text, 'birthDateMax', g.birth_date_max::text,
        'timeDuration', g.time_duration,
        'accessStart', (extract(epoch FROM g.access_start) * 1000)::float8,
        'accessEnd', (extract(epoch FROM g.access_end) * 1000)::float8,
        'requiredSelectionId', g.required_selection_id,
        'qualified', CASE WHEN g.required_selection_id IS NOT NULL THEN ${qualifiedSqlText('u.id', 'g.required_selection_id')} END) ORDER BY g.position)
      FROM access_groups g WHERE g.chapter_id = c.id) AS rules`;

/** The scheduled publication (decision 69), as epoch milliseconds like every instant of these rows. */
const PUBLISH_MS_SQL = '(extract(epoch FROM c.publish_at) * 1000)::float8 AS publish_ms';

const callerJoinsSql = (user: string) => `LEFT JOIN users u ON u.id = ${user}
  LEFT JOIN institutions i ON i.id = u.institution_id
  LEFT JOIN chapter_sessions s ON s.chapter_id = c.id AND s.user_id = ${user}`;

/** The chapter's context for a chapter call (GET/POST /chapter/start, events, answers): $1 user, $2 chapter. */
const CHAPTER_CONTEXT_SQL = `
  SELECT c.id AS chapter_id, c.title, c.offline, c.analysis, ${PUBLISH_MS_SQL}, NULL::uuid AS exercise_id, NULL::text AS answer_format,
    ${callerColumnsSql}
  FROM chapters c
  ${callerJoinsSql('$1::uuid')}
  WHERE c.id = $2::uuid AND c.deleted_at IS NULL`;

/**
 * One round trip, one prepared statement: the chapter (or the exercise and its chapter), the
 * caller's profile, the access groups in table order and the caller's session row. Instants
 * travel as epoch milliseconds so PGlite and node-postgres give the same values.
 */
export async function queryContext(db: Db, auth: AuthContext, target: { chapterId: string } | { exerciseId: string }) {
  const [row] =
    'chapterId' in target
      ? await queryRows(db, contextRowShape, 'chapter_context', CHAPTER_CONTEXT_SQL, [auth.userId, target.chapterId])
      : await queryRows(db, contextRowShape, 'exercise_context_plain', EXERCISE_CONTEXT_SQL, [
          auth.userId,
          target.exerciseId,
          auth.actorId ?? null,
          auth.sessionId ?? null,
        ]);
  return row;
}

/**
 * The save path's context (POST /answer), as raw text for prepared statements: the same columns as
 * queryContext for an exercise, plus what resolveAuth checks (token version, roles, impersonating
 * admin), so that one row describes everything a save decision depends on. Parameters: $1 user,
 * $2 exercise, $3 impersonating admin or NULL, $4 the token's session or NULL (`exerciseContextSql` takes other expressions, for a
 * batch). `answers/queries.ts` fingerprints this row (md5 of
 * its text) to re-check a memoised decision inside the insert statement itself.
 */
export const exerciseContextSql = (user: string, exercise: string, actor: string, session: string) => `
  SELECT c.id AS chapter_id, c.title, c.offline, c.analysis, ${PUBLISH_MS_SQL}, e.id AS exercise_id, e.answer_format,
    ${callerColumnsSql},
    ${authColumnsSql(actor, session)}
  FROM exercises e JOIN chapters c ON c.id = e.chapter_id
  ${callerJoinsSql(user)}
  WHERE e.id = ${exercise} AND e.deleted_at IS NULL AND c.deleted_at IS NULL`;

export const EXERCISE_CONTEXT_SQL = exerciseContextSql('$1::uuid', '$2::uuid', '$3::uuid', '$4::uuid');

/** The save's context row: the context, what resolveAuth checks, and the row's fingerprint. */
const exerciseContextRowShape = contextRowShape.extend({
  token_version: z.number().nullable(),
  institution_id: z.string().nullable(),
  is_member: z.boolean(),
  is_teacher: z.boolean(),
  actor_ok: z.boolean(),
  session_ok: z.boolean(),
  /** md5 of the whole row's text. */
  fingerprint: z.string(),
});
export type ExerciseContextRow = z.output<typeof exerciseContextRowShape>;

/** The save's context row and its fingerprint, one prepared statement (undefined: unknown exercise). */
export async function queryExerciseContext(db: Db, auth: AuthContext, exerciseId: string): Promise<ExerciseContextRow | undefined> {
  const [row] = await queryRows(
    db,
    exerciseContextRowShape,
    'exercise_context',
    `WITH ctx AS (${EXERCISE_CONTEXT_SQL}) SELECT ctx.*, md5(ctx::text) AS fingerprint FROM ctx`,
    [auth.userId, exerciseId, auth.actorId ?? null, auth.sessionId ?? null],
  );
  return row;
}
