import { isProfileComplete, type SessionStateView } from '@olympe/contract';
import { authColumnsSql, type AuthContext } from '../auth/context.js';
import { accessProfileOf, matchAccessRule } from '../chapters/access.js';
import { isChapterPublished } from '../chapters/publication.js';
import { queryRows, type Db } from '../db/client.js';
import { chapterSessions, focusEvents } from '../db/schema.js';
import { forbidden, notFound } from '../errors.js';
import { PROFILE_INCOMPLETE_MESSAGE } from '../users/service.js';
import { isSessionStaff } from './policies.js';
import {
  computeDeadline,
  computeSessionState,
  extraMs,
  FINISHED_MESSAGE,
  NO_ALLOWANCE,
  NOT_YET_MESSAGE,
  type Allowance,
  type SessionState,
  type TimeRule,
} from './state.js';

/** The chapter fields the session and answer rules need. */
export interface ChapterInfo {
  id: string;
  title: string;
  offline: boolean;
  analysis: boolean;
}

/** Everything a chapter-content call needs to know about the caller and the clock. */
export interface ChapterContext {
  chapter: ChapterInfo;
  /** Admins and members: always started and unlimited. */
  staff: boolean;
  rule: TimeRule | null;
  session: { startedAt: Date; endTime: Date | null; finishedAt: Date | null } | null;
  state: SessionState;
  /** The profile fields the access group was matched on: the session's own once it started. */
  accessProfile: AccessProfile;
  /** The pupil's own extra time and incident extensions in this chapter. */
  allowance: Allowance;
}

export interface AccessProfile {
  gender: string | null;
  grade: string | null;
  birthDate: string | null;
}

export const NO_ACCESS_MESSAGE = 'Vous n’avez pas accès à ce chapitre.';

interface ContextRow {
  chapter_id: string;
  title: string;
  offline: boolean;
  analysis: boolean;
  publish_ms: number | null;
  exercise_id: string | null;
  answer_format: string | null;
  user_id: string | null;
  first_name: string | null;
  last_name: string | null;
  gender: string | null;
  grade: string | null;
  birth_date: string | null;
  default_choice: string | null;
  email_parent: string | null;
  is_admin: boolean | null;
  institution_name: string | null;
  started_ms: number | null;
  end_ms: number | null;
  finished_ms: number | null;
  access_gender: string | null;
  access_grade: string | null;
  access_birth_date: string | null;
  extra_time_percent: number | null;
  extension_minutes: number | null;
  rules: Array<Record<string, unknown>> | string | null;
}

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
        'accessEnd', (extract(epoch FROM g.access_end) * 1000)::float8) ORDER BY g.position)
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
async function queryContext(db: Db, auth: AuthContext, target: { chapterId: string } | { exerciseId: string }) {
  const [row] =
    'chapterId' in target
      ? await queryRows<ContextRow>(db, 'chapter_context', CHAPTER_CONTEXT_SQL, [auth.userId, target.chapterId])
      : await queryRows<ContextRow>(db, 'exercise_context_plain', EXERCISE_CONTEXT_SQL, [auth.userId, target.exerciseId, auth.actorId ?? null, auth.sessionId ?? null]);
  return row;
}

/**
 * The save path's context (POST /answer), as raw text for prepared statements: the same columns as
 * queryContext for an exercise, plus what resolveAuth checks (token version, roles, impersonating
 * admin), so that one row describes everything a save decision depends on. Parameters: $1 user,
 * $2 exercise, $3 impersonating admin or NULL, $4 the token's session or NULL (`exerciseContextSql` takes other expressions, for a
 * batch). `answers/service.ts` fingerprints this row (md5 of
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

export interface ExerciseContextRow extends ContextRow {
  token_version: number | null;
  institution_id: string | null;
  is_member: boolean;
  is_teacher: boolean;
  actor_ok: boolean;
  session_ok: boolean;
  /** md5 of the whole row's text. */
  fingerprint: string;
}

/** The save's context row and its fingerprint, one prepared statement (undefined: unknown exercise). */
export async function queryExerciseContext(db: Db, auth: AuthContext, exerciseId: string): Promise<ExerciseContextRow | undefined> {
  const [row] = await queryRows<ExerciseContextRow>(
    db,
    'exercise_context',
    `WITH ctx AS (${EXERCISE_CONTEXT_SQL}) SELECT ctx.*, md5(ctx::text) AS fingerprint FROM ctx`,
    [auth.userId, exerciseId, auth.actorId ?? null, auth.sessionId ?? null],
  );
  return row;
}

/** The chapter context of a row of EXERCISE_CONTEXT_SQL, as loadExerciseContext gives it. */
export function exerciseContextOf(row: ContextRow, auth: AuthContext, now: Date) {
  const exercise = { id: row.exercise_id!, chapterId: row.chapter_id, answerFormat: row.answer_format! };
  return { ...contextOf(row, auth, now), exercise };
}

const toDate = (ms: unknown) => (typeof ms === 'number' ? new Date(ms) : null);

function rulesOf(row: ContextRow) {
  const raw = typeof row.rules === 'string' ? (JSON.parse(row.rules) as Array<Record<string, unknown>>) : (row.rules ?? []);
  return raw.map((r) => ({
    authorizedGenders: (r.authorizedGenders as string[] | null) ?? [],
    authorizedGrades: (r.authorizedGrades as string[] | null) ?? [],
    birthDateMin: (r.birthDateMin as string | null) ?? null,
    birthDateMax: (r.birthDateMax as string | null) ?? null,
    timeDuration: (r.timeDuration as number | null) ?? null,
    accessStart: toDate(r.accessStart),
    accessEnd: toDate(r.accessEnd),
  }));
}

/**
 * Resolves the chapter, the access group deciding for the caller (docs/product.md#design-3: first match in table
 * order), their session row and the state at `now`. Throws 404 for an unknown chapter, 403 when
 * no access group admits a pupil or their profile is incomplete.
 */
export async function loadChapterContext(db: Db, auth: AuthContext, chapterId: string, now = new Date()): Promise<ChapterContext> {
  const row = await queryContext(db, auth, { chapterId });
  if (!row) throw notFound('Chapitre introuvable.');
  return contextOf(row, auth, now);
}

/** The same for the chapter of an exercise, with the exercise's answer format (POST /answer, POST /pdfs). */
export async function loadExerciseContext(
  db: Db,
  auth: AuthContext,
  exerciseId: string,
  now = new Date(),
): Promise<ChapterContext & { exercise: { id: string; chapterId: string; answerFormat: string } }> {
  const row = await queryContext(db, auth, { exerciseId });
  if (!row) throw notFound('Exercice introuvable.');
  const exercise = { id: row.exercise_id!, chapterId: row.chapter_id, answerFormat: row.answer_format! };
  return { ...contextOf(row, auth, now), exercise };
}

function contextOf(row: ContextRow, auth: AuthContext, now: Date): ChapterContext {
  // Decision 69: `analysis` here means "published", scheduled publication included.
  const analysis = isChapterPublished({ analysis: row.analysis, publishAt: row.publish_ms }, now);
  const chapter: ChapterInfo = { id: row.chapter_id, title: row.title, offline: row.offline, analysis };
  if (isSessionStaff(auth)) {
    const accessProfile = { gender: row.gender, grade: row.grade, birthDate: row.birth_date };
    return {
      chapter,
      staff: true,
      rule: null,
      session: null,
      state: { status: 'started', remainingTime: null, timed: false, deadline: null },
      accessProfile,
      allowance: NO_ALLOWANCE,
    };
  }
  // docs/product.md#spec-5/§6: the rule of assertProfileComplete (users/service), evaluated on the row already loaded.
  const groupNames = auth.isTeacher ? ['teachers'] : [];
  const profile = {
    firstName: row.first_name,
    lastName: row.last_name,
    gender: row.gender,
    birthDate: row.birth_date,
    grade: row.grade,
    defaultChoice: row.default_choice,
    emailParent: row.email_parent,
    isAdmin: !!row.is_admin,
    institution: row.institution_name ? { _id: '', name: row.institution_name } : null,
  };
  if (!row.user_id || !isProfileComplete(profile as Parameters<typeof isProfileComplete>[0], groupNames)) {
    throw forbidden(PROFILE_INCOMPLETE_MESSAGE);
  }
  const rules = rulesOf(row);
  const session =
    row.started_ms !== null ? { startedAt: new Date(row.started_ms), endTime: toDate(row.end_ms), finishedAt: toDate(row.finished_ms) } : null;
  const accessProfile: AccessProfile = accessProfileOf(row, session !== null);
  const allowance: Allowance = { extraTimePercent: Number(row.extra_time_percent ?? 0), extensionMinutes: Number(row.extension_minutes ?? 0) };
  let rule: TimeRule | null = matchAccessRule(accessProfile, rules);
  if (!rule && auth.isTeacher && chapter.offline) {
    // School staff reach every paper chapter (docs/product.md#design-3); they follow the first group's window, untimed.
    if (!rules[0]) {
      const state: SessionState = { status: 'before', remainingTime: null, timed: false, deadline: null };
      return { chapter, staff: false, rule: null, session: null, state, accessProfile, allowance };
    }
    rule = { timeDuration: null, accessStart: rules[0].accessStart, accessEnd: rules[0].accessEnd };
  }
  if (!rule) throw forbidden(NO_ACCESS_MESSAGE);
  return { chapter, staff: false, rule, session, state: computeSessionState({ now, rule, session, allowance }), accessProfile, allowance };
}

/** The state as the API presents it (instants as ISO strings). */
export function presentSessionState(ctx: ChapterContext): SessionStateView {
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  // The pupil's own window end and end: pushed back by their extra time and extensions.
  const extra = ctx.rule ? extraMs(ctx.rule, ctx.allowance) : 0;
  const accessEnd = ctx.rule?.accessEnd ? new Date(ctx.rule.accessEnd.getTime() + extra) : null;
  const endTime = ctx.session && ctx.state.timed && ctx.state.deadline ? ctx.state.deadline : ctx.session?.endTime;
  return {
    status: ctx.state.status,
    remainingTime: ctx.state.remainingTime,
    timed: ctx.state.timed,
    // Shown before the pupil starts (docs/product.md#spec-2 start button): what they commit to.
    // The pupil's own duration: their extra time and extensions included.
    duration: ctx.state.timed && ctx.rule?.timeDuration ? Math.round((ctx.rule.timeDuration * 60_000 + extra) / 1000) : null,
    accessStart: iso(ctx.rule?.accessStart),
    accessEnd: iso(accessEnd),
    startedAt: iso(ctx.session?.startedAt),
    endTime: iso(endTime),
    deadline: iso(ctx.state.deadline),
    serverTime: new Date().toISOString(),
    // Only once finished: the state's shape stays what it was for every other session.
    ...(ctx.state.finished ? { finishedAt: iso(ctx.session?.finishedAt) } : {}),
  };
}

/**
 * GET /chapter/start/{id}: the caller's session state. Exercise statements may be given to the
 * caller only when `status === 'started'` (remainingTime is then null or > 0).
 */
export async function getChapterSessionState(db: Db, auth: AuthContext, chapterId: string): Promise<SessionStateView> {
  return presentSessionState(await loadChapterContext(db, auth, chapterId));
}

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

/**
 * POST /chapter/event/{chapterId}: docs/product.md#spec-4 focus tracking, kept only while the chapter is timed,
 * started and time remains; returns whether the event was stored.
 */
export async function recordFocusEvent(
  db: Db,
  auth: AuthContext,
  input: { chapterId: string; eventType: 'focus' | 'blur'; ip: string },
): Promise<boolean> {
  const ctx = await loadChapterContext(db, auth, input.chapterId);
  if (ctx.staff || !ctx.state.timed || ctx.state.status !== 'started') return false;
  await db.insert(focusEvents).values({ chapterId: input.chapterId, userId: auth.userId, eventType: input.eventType, ip: input.ip });
  return true;
}
