import { isProfileComplete, type SessionStateView } from '@olympe/contract';
import { accessProfileOf, matchAccessRule } from '../chapters/access.js';
import { isChapterPublished } from '../chapters/publication.js';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { forbidden, notFound } from '../errors.js';
import { PROFILE_INCOMPLETE_MESSAGE } from '../users/service.js';
import { canFollowPaperChapter, isSessionStaff, profileGroupsOf } from './policies.js';
import { presentSessionState } from './presenters.js';
import { queryContext, type ContextRow } from './queries.js';
import { computeSessionState, NO_ALLOWANCE, type Allowance, type SessionState, type TimeRule } from './state.js';

/** The session context: what a chapter call knows of the caller, their access group, session and clock. */

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

/** The chapter context of a row of EXERCISE_CONTEXT_SQL, as loadExerciseContext gives it. */
export function exerciseContextOf(row: ContextRow, auth: AuthContext, now: Date) {
  const exercise = { id: row.exercise_id!, chapterId: row.chapter_id, answerFormat: row.answer_format! };
  return { ...contextOf(row, auth, now), exercise };
}

const toDate = (ms: unknown) => (typeof ms === 'number' ? new Date(ms) : null);

const rawRulesOf = (row: ContextRow) =>
  typeof row.rules === 'string' ? (JSON.parse(row.rules) as Array<Record<string, unknown>>) : (row.rules ?? []);

function rulesOf(raw: Array<Record<string, unknown>>) {
  return raw.map((r) => ({
    authorizedGenders: (r.authorizedGenders as string[] | null) ?? [],
    authorizedGrades: (r.authorizedGrades as string[] | null) ?? [],
    birthDateMin: (r.birthDateMin as string | null) ?? null,
    birthDateMax: (r.birthDateMax as string | null) ?? null,
    timeDuration: (r.timeDuration as number | null) ?? null,
    accessStart: toDate(r.accessStart),
    accessEnd: toDate(r.accessEnd),
    requiredSelectionId: (r.requiredSelectionId as string | null) ?? null,
  }));
}

/** Decision 157: the required selections the caller is qualified in, computed by the context's own statement. */
function qualifiedInOf(raw: Array<Record<string, unknown>>): Set<string> {
  return new Set(raw.filter((r) => r.qualified === true).map((r) => String(r.requiredSelectionId)));
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
  const groupNames = profileGroupsOf(auth);
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
  const rawRules = rawRulesOf(row);
  const rules = rulesOf(rawRules);
  const session =
    row.started_ms !== null
      ? { startedAt: new Date(row.started_ms), endTime: toDate(row.end_ms), finishedAt: toDate(row.finished_ms) }
      : null;
  const accessProfile: AccessProfile = accessProfileOf(row, session !== null);
  const allowance: Allowance = {
    extraTimePercent: Number(row.extra_time_percent ?? 0),
    extensionMinutes: Number(row.extension_minutes ?? 0),
  };
  let rule: TimeRule | null = matchAccessRule({ ...accessProfile, qualifiedIn: qualifiedInOf(rawRules) }, rules);
  if (!rule && canFollowPaperChapter(auth, chapter)) {
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

/**
 * GET /chapter/start/{id}: the caller's session state. Exercise statements may be given to the
 * caller only when `status === 'started'` (remainingTime is then null or > 0).
 */
export async function getChapterSessionState(db: Db, auth: AuthContext, chapterId: string): Promise<SessionStateView> {
  return presentSessionState(await loadChapterContext(db, auth, chapterId));
}
