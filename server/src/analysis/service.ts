import type { ChapterAnalysis } from '@olympe/contract';
import { matchAccessRule, type AccessRule } from '../chapters/access.js';
import type { Db } from '../db/client.js';
import { notFound } from '../errors.js';
import { computeDeadline } from '../sessions/state.js';
import { computeAnalysis, type AnalysisInput } from './compute.js';
import {
  answerGroupRows,
  chapterRows,
  currentRows,
  eventRows,
  exerciseRows,
  FIELD,
  pupilRowsById,
  RECORD,
  ruleRows,
  sessionPupilRows,
  type PupilRow,
  type RuleRow,
} from './queries.js';

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

/** Splits an aggregated text column (null when the pupil has no row). */
const recordsOf = (text: string | null) => (text ? text.split(RECORD) : []);

type Rows<F extends (db: Db, chapterId: string) => Promise<unknown[]>> = Awaited<ReturnType<F>>;

/** The focus events of each pupil's text, in time order. */
const eventsOf = (list: Rows<typeof eventRows>): AnalysisInput['events'] =>
  list.flatMap((row) =>
    recordsOf(row.events).map((r) => {
      const sep = r.indexOf(FIELD);
      const type = r[0];
      return {
        userId: row.user_id,
        eventType: type === 'b' ? 'blur' : type === 'f' ? 'focus' : 'other',
        at: Number(r.slice(1, sep)),
        ip: r.slice(sep + 1) || null,
      };
    }),
  );

const answerGroupsOf = (list: Rows<typeof answerGroupRows>, exerciseIds: string[]): AnalysisInput['answerGroups'] =>
  list.flatMap((row) =>
    recordsOf(row.groups).map((r) => {
      const [idx, first, last, n, ip, answer] = r.split(FIELD);
      return {
        userId: row.user_id,
        exerciseId: exerciseIds[Number(idx)],
        answer,
        ip: ip || null,
        count: Number(n),
        firstAt: Number(first),
        lastAt: Number(last),
      };
    }),
  );

const currentOf = (list: Rows<typeof currentRows>, exerciseIds: string[]): AnalysisInput['current'] =>
  list.flatMap((row) =>
    recordsOf(row.current).map((r) => {
      const sep = r.indexOf(FIELD);
      return { userId: row.user_id, exerciseId: exerciseIds[Number(r.slice(0, sep))], answer: r.slice(sep + 1) };
    }),
  );

/** Pupils with events or answers but no session (an untimed chapter): one more lookup by id. */
async function withPupilsWithoutSession(db: Db, chapterId: string, sessions: PupilRow[], others: Array<{ user_id: string }[]>) {
  const known = new Set(sessions.map((p) => p.id));
  const missing = [...new Set(others.flatMap((list) => list.map((r) => r.user_id)))].filter((id) => !known.has(id));
  return missing.length ? [...sessions, ...(await pupilRowsById(db, chapterId, missing))] : sessions;
}

/**
 * Everything the analysis of a chapter needs (docs/product.md#design-3 "Cheat analysis"), in set-based queries
 * run together (never one per pupil). Pupils are everyone with a session, a focus event or an
 * answer in the chapter. Events and answer rows travel as one text per pupil (far cheaper for
 * node-postgres than one row each, as bench/grading found); answer rows are grouped by (exercise,
 * text, ip) first: the first and last save of each text is all the figures need.
 */
export async function loadAnalysisInput(db: Db, chapterId: string, now = new Date()) {
  const [chapters, rules, exercises, sessions, events, groups, current] = await Promise.all([
    chapterRows(db, chapterId),
    ruleRows(db, chapterId),
    exerciseRows(db, chapterId),
    sessionPupilRows(db, chapterId),
    eventRows(db, chapterId),
    answerGroupRows(db, chapterId),
    currentRows(db, chapterId),
  ]);
  const [chapter] = chapters;
  if (!chapter) throw notFound('Chapitre introuvable.');
  const pupils = await withPupilsWithoutSession(db, chapterId, sessions, [events, groups, current]);
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
    events: eventsOf(events),
    answerGroups: answerGroupsOf(groups, exerciseIds),
    current: currentOf(current, exerciseIds),
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

const ruleOf = (r: RuleRow): AccessRule => ({
  authorizedGenders: r.authorized_genders ?? [],
  authorizedGrades: r.authorized_grades ?? [],
  birthDateMin: r.birth_date_min,
  birthDateMax: r.birth_date_max,
  timeDuration: r.time_duration,
  accessStart: r.start_ms === null ? null : new Date(r.start_ms),
  accessEnd: r.end_ms === null ? null : new Date(r.end_ms),
});
