import {
  analysisScore,
  MAX_PAIRS_PER_IP,
  normalizeText,
  SUSPICIOUS_WINDOW_SECONDS,
  type IndividualAnalysis,
  type IpGroup,
  type PairAnalysis,
} from '@olympe/contract';
import { autoGrade, parseNumericAnswer } from '../grading/autocorrect.js';
import { pickVersionIndex } from '../exercises/versions.js';

/**
 * docs/product.md#design-3 "Cheat analysis", pure: every figure from rows loaded in a few set-based queries
 * (service.ts). Instants are epoch milliseconds. Definitions (also on the page, one sentence each):
 *
 * - End of a pupil's time: their deadline (min(start + duration, access end), following the
 *   current access rule as the session rules do), or, when they have none (unlimited), their last
 *   activity (last event or answer save); never later than `now` (a test still running).
 * - Blur events: the times the pupil left the window. A blur while already away (a lost focus
 *   report, two tabs) continues the same absence; a focus with no blur before it is ignored;
 *   events after the end are ignored.
 * - Blur duration: each absence from its first blur to the next focus, or to the end when no
 *   focus follows (counted in whole seconds, rounded once on the total).
 * - Suspicious correct answers: numeric exercises whose answer first became correct (compared
 *   with the pupil's own statement version, as auto-correction does) at most 30 s after a return
 *   (a focus that ends an absence). An answer that was already correct before does not count.
 * - timeFor70Pct: n = exercises with a non-empty current answer; the exercises' first non-empty
 *   saves sorted by time; the ceil(0.7 n)-th of them minus the session start, in seconds (0 if
 *   earlier); null without a session start or with no answer.
 * - IPs: every address in the pupil's events and answer saves; `ip` is the most used (count of
 *   rows), ties to the one seen first. Groups take every address a pupil used.
 * - Pairs: within an address used by two pupils or more, two pupils' common wrong answers are the
 *   numeric exercises where both current answers are wrong and equal as numbers ("3,5" = "3.5");
 *   pairs with at least one are ranked by that count, then by identical current answers, then by
 *   name; at most 5. commonAnswers lists every identical non-empty current numeric answer.
 */

export interface AnalysisExercise {
  id: string;
  answerFormat: string;
  /** Expected answers of the statement versions in order (numeric exercises). */
  expected: Array<string | null>;
}

export interface AnalysisPupil {
  id: string;
  firstName: string | null;
  lastName: string | null;
  startedAt: number | null;
  /** Resolved by the service; null = unlimited. */
  deadline: number | null;
}

export interface AnalysisEvent {
  userId: string;
  eventType: string;
  at: number;
  ip: string | null;
}

/** One distinct answer text of a pupil for an exercise (answer rows grouped by user, exercise, answer, ip). */
export interface AnalysisAnswerGroup {
  userId: string;
  exerciseId: string;
  answer: string;
  ip: string | null;
  /** Number of saves in the group. */
  count: number;
  firstAt: number;
  lastAt: number;
}

/** The current answer of a pupil for an exercise (highest seq, then latest). */
export interface AnalysisCurrentAnswer {
  userId: string;
  exerciseId: string;
  answer: string;
}

export interface AnalysisInput {
  now: number;
  /** Answerable exercises in chapter order. */
  exercises: AnalysisExercise[];
  pupils: AnalysisPupil[];
  events: AnalysisEvent[];
  answerGroups: AnalysisAnswerGroup[];
  current: AnalysisCurrentAnswer[];
}

export interface AnalysisOutput {
  individualAnalysis: IndividualAnalysis[];
  pairAnalysis: IpGroup[];
}

const WINDOW_MS = SUSPICIOUS_WINDOW_SECONDS * 1000;

interface PupilState {
  pupil: AnalysisPupil;
  nameKey: string;
  events: AnalysisEvent[];
  groups: AnalysisAnswerGroup[];
  /** Current numeric answer per numeric exercise index: comparison key, text, wrong. */
  currentKeys: Array<string | undefined>;
  currentText: Array<string | undefined>;
  currentWrong: Uint8Array;
  /** The pupil's expected answer per numeric exercise index, filled on first use. */
  expected: Array<string | null | undefined>;
  ipCounts: Map<string, { n: number; first: number }>;
}

const personOf = (p: AnalysisPupil) => ({ _id: p.id, firstName: p.firstName, lastName: p.lastName });

/** How two numeric answers are compared: as numbers when they parse, else as trimmed text. */
export function answerKey(answer: string): string {
  const n = parseNumericAnswer(answer);
  return n === null ? answer.trim().toLowerCase() : `#${n}`;
}

/**
 * The expected answer of the pupil's version (docs/product.md#design-3 Statement versions), hashed once per
 * (pupil, exercise): the hash is the costliest step at 2,000 pupils × 20 exercises.
 */
function expectedFor(s: PupilState, k: number, exercise: AnalysisExercise): string | null {
  let value = s.expected[k];
  if (value === undefined) {
    const count = exercise.expected.length;
    value = count === 0 ? null : (exercise.expected[count === 1 ? 0 : pickVersionIndex(s.pupil.id, exercise.id, count)] ?? null);
    s.expected[k] = value;
  }
  return value;
}

/** Blur count, duration (ms) and the return instants of one pupil's timeline, up to `end`. */
export function measureBlurs(events: readonly AnalysisEvent[], end: number) {
  let awaySince: number | null = null;
  let blurEvents = 0;
  let durationMs = 0;
  const returns: number[] = [];
  for (const e of events) {
    if (e.at > end) break;
    if (e.eventType === 'blur') {
      if (awaySince === null) {
        awaySince = e.at;
        blurEvents++;
      }
    } else if (e.eventType === 'focus' && awaySince !== null) {
      durationMs += e.at - awaySince;
      returns.push(e.at);
      awaySince = null;
    }
  }
  if (awaySince !== null) durationMs += Math.max(0, end - awaySince);
  return { blurEvents, durationMs, returns };
}

/** ceil(0.7 n) without floating-point surprises (0.7 × 10 must give 7). */
export const seventyPercentOf = (n: number) => Math.ceil((n * 7) / 10);

/** The whole analysis of a chapter. */
export function computeAnalysis(input: AnalysisInput): AnalysisOutput {
  const exerciseIndex = new Map(input.exercises.map((e, i) => [e.id, i]));
  const numeric = input.exercises.filter((e) => e.answerFormat === 'numeric');
  const numericIndex = new Map(numeric.map((e, i) => [e.id, i]));

  const states = new Map<string, PupilState>();
  for (const pupil of input.pupils) {
    states.set(pupil.id, {
      pupil,
      nameKey: normalizeText(`${pupil.lastName ?? ''} ${pupil.firstName ?? ''}`) + ` ${pupil.id}`,
      events: [],
      groups: [],
      currentKeys: new Array(numeric.length),
      currentText: new Array(numeric.length),
      currentWrong: new Uint8Array(numeric.length),
      expected: new Array(numeric.length),
      ipCounts: new Map(),
    });
  }
  const countIp = (s: PupilState, ip: string | null, n: number, at: number) => {
    if (!ip) return;
    const c = s.ipCounts.get(ip);
    if (c) {
      c.n += n;
      c.first = Math.min(c.first, at);
    } else s.ipCounts.set(ip, { n, first: at });
  };
  for (const e of input.events) {
    const s = states.get(e.userId);
    if (!s) continue;
    s.events.push(e);
    countIp(s, e.ip, 1, e.at);
  }
  for (const g of input.answerGroups) {
    const s = states.get(g.userId);
    if (!s || !exerciseIndex.has(g.exerciseId)) continue;
    s.groups.push(g);
    countIp(s, g.ip, g.count, g.firstAt);
  }
  const answeredByPupil = new Map<string, Set<string>>();
  for (const c of input.current) {
    const s = states.get(c.userId);
    if (!s || !exerciseIndex.has(c.exerciseId) || c.answer.trim() === '') continue;
    let set = answeredByPupil.get(c.userId);
    if (!set) answeredByPupil.set(c.userId, (set = new Set()));
    set.add(c.exerciseId);
    const k = numericIndex.get(c.exerciseId);
    if (k === undefined) continue;
    s.currentKeys[k] = answerKey(c.answer);
    s.currentText[k] = c.answer.trim();
    s.currentWrong[k] = autoGrade(c.answer, expectedFor(s, k, numeric[k])) === '0' ? 1 : 0;
  }

  const ctx: PupilContext = { now: input.now, exerciseIndex, numeric, numericIndex };
  const individualAnalysis: IndividualAnalysis[] = [];
  for (const s of states.values()) {
    individualAnalysis.push(analysePupil(s, ctx, answeredByPupil.get(s.pupil.id) ?? new Set()));
  }
  individualAnalysis.sort((a, b) => b.score - a.score || cmp(states.get(a.user._id)!.nameKey, states.get(b.user._id)!.nameKey));

  return { individualAnalysis, pairAnalysis: groupByIp(states, numeric) };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface PupilContext {
  now: number;
  exerciseIndex: Map<string, number>;
  numeric: AnalysisExercise[];
  numericIndex: Map<string, number>;
}

function analysePupil(
  s: PupilState,
  { now, exerciseIndex, numeric, numericIndex }: PupilContext,
  answered: Set<string>,
): IndividualAnalysis {
  const { pupil } = s;
  s.events.sort((a, b) => a.at - b.at);
  let lastActivity = pupil.startedAt ?? 0;
  for (const e of s.events) lastActivity = Math.max(lastActivity, e.at);
  for (const g of s.groups) lastActivity = Math.max(lastActivity, g.lastAt);
  const end = Math.min(pupil.deadline ?? lastActivity, now);
  const blurs = measureBlurs(s.events, end);

  // First non-empty save and first correct save per exercise.
  const firstAnswered = new Map<string, number>();
  const firstCorrect = new Map<string, number>();
  for (const g of s.groups) {
    if (g.answer.trim() === '') continue;
    const prev = firstAnswered.get(g.exerciseId);
    if (prev === undefined || g.firstAt < prev) firstAnswered.set(g.exerciseId, g.firstAt);
    const k = numericIndex.get(g.exerciseId);
    if (k !== undefined && autoGrade(g.answer, expectedFor(s, k, numeric[k])) === '1') {
      const c = firstCorrect.get(g.exerciseId);
      if (c === undefined || g.firstAt < c) firstCorrect.set(g.exerciseId, g.firstAt);
    }
  }
  const suspicious = [...firstCorrect.entries()]
    .filter(([, at]) => blurs.returns.some((r) => at >= r && at - r <= WINDOW_MS))
    .map(([id]) => id)
    .sort((a, b) => exerciseIndex.get(a)! - exerciseIndex.get(b)!);

  let timeFor70Pct: number | null = null;
  const firstTimes = [...answered].map((id) => firstAnswered.get(id)).filter((t): t is number => t !== undefined);
  if (pupil.startedAt !== null && firstTimes.length > 0) {
    firstTimes.sort((a, b) => a - b);
    const k = Math.min(seventyPercentOf(answered.size), firstTimes.length);
    timeFor70Pct = Math.max(0, Math.round((firstTimes[k - 1] - pupil.startedAt) / 1000));
  }

  const ips = [...s.ipCounts.entries()].sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first || cmp(a[0], b[0])).map(([ip]) => ip);
  const firstAnsweredId = [...answered].sort((a, b) => exerciseIndex.get(a)! - exerciseIndex.get(b)!)[0];
  const entry = {
    user: personOf(pupil),
    ip: ips[0] ?? null,
    ips,
    totalBlurEvents: blurs.blurEvents,
    totalBlurDuration: Math.round(blurs.durationMs / 1000),
    suspiciousCorrectAnswers: suspicious.length,
    suspiciousExerciseIds: suspicious,
    timeFor70Pct,
    answered: answered.size,
    historyExerciseId: suspicious[0] ?? firstAnsweredId ?? null,
    score: 0,
  };
  entry.score = analysisScore(entry);
  return entry;
}

/** Per address used by two pupils or more: the pupils and the top pairs by common wrong answers. */
function groupByIp(states: Map<string, PupilState>, numeric: AnalysisExercise[]): IpGroup[] {
  const numericIds = numeric.map((e) => e.id);
  const byIp = new Map<string, PupilState[]>();
  for (const s of states.values()) {
    for (const ip of s.ipCounts.keys()) {
      const list = byIp.get(ip);
      if (list) list.push(s);
      else byIp.set(ip, [s]);
    }
  }
  const groups: IpGroup[] = [];
  for (const [ip, members] of byIp) {
    if (members.length < 2) continue;
    members.sort((a, b) => cmp(a.nameKey, b.nameKey));
    groups.push({ ip, userIds: members.map((m) => m.pupil.id), pairs: rankPairs(members, numericIds) });
  }
  const best = (g: IpGroup) => g.pairs[0]?.commonWrong ?? 0;
  return groups.sort((a, b) => best(b) - best(a) || b.userIds.length - a.userIds.length || cmp(a.ip, b.ip));
}

/** Largest group counted in a flat triangular array (2 bytes per pair); bigger ones use a map. */
const DENSE_LIMIT = 6000;

/**
 * The top MAX_PAIRS_PER_IP pairs of one address. Pupils are bucketed per (exercise, wrong answer)
 * so only pairs that share a wrong answer are ever touched; counts are kept in a triangular array.
 */
function rankPairs(members: readonly PupilState[], numericIds: readonly string[]): PairAnalysis[] {
  const n = members.length;
  const numericCount = numericIds.length;
  const dense = n <= DENSE_LIMIT ? new Uint16Array((n * (n - 1)) / 2) : null;
  const sparse = dense ? null : new Map<number, number>();
  // Triangular index of (i, j), i < j.
  const at = (i: number, j: number) => i * n - (i * (i + 1)) / 2 + (j - i - 1);
  for (let k = 0; k < numericCount; k++) {
    const buckets = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      if (!members[i].currentWrong[k]) continue;
      const key = members[i].currentKeys[k]!;
      const list = buckets.get(key);
      if (list) list.push(i);
      else buckets.set(key, [i]);
    }
    for (const list of buckets.values()) {
      for (let a = 0; a < list.length; a++) {
        for (let b = a + 1; b < list.length; b++) {
          const idx = at(list[a], list[b]);
          if (dense) dense[idx]++;
          else sparse!.set(idx, (sparse!.get(idx) ?? 0) + 1);
        }
      }
    }
  }
  // The 5th best count is the threshold; every pair reaching it is a candidate (ties broken below).
  const top: number[] = [];
  const consider = (c: number) => {
    if (c === 0 || (top.length === MAX_PAIRS_PER_IP && c <= top[top.length - 1])) return;
    top.push(c);
    top.sort((x, y) => y - x);
    if (top.length > MAX_PAIRS_PER_IP) top.pop();
  };
  if (dense) for (let x = 0; x < dense.length; x++) consider(dense[x]);
  else for (const c of sparse!.values()) consider(c);
  if (top.length === 0) return [];
  const threshold = top[top.length - 1];

  const candidates: Array<{ i: number; j: number; wrong: number; common: PairAnalysis['commonAnswers'] }> = [];
  const pushCandidate = (i: number, j: number, wrong: number) => {
    const common: PairAnalysis['commonAnswers'] = [];
    const a = members[i];
    const b = members[j];
    for (let k = 0; k < numericCount; k++) {
      const key = a.currentKeys[k];
      if (key !== undefined && key === b.currentKeys[k]) {
        common.push({ exerciseId: numericIds[k], answer: a.currentText[k]!, wrong: !!(a.currentWrong[k] && b.currentWrong[k]) });
      }
    }
    candidates.push({ i, j, wrong, common });
  };
  if (dense) {
    let idx = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++, idx++) if (dense[idx] >= threshold) pushCandidate(i, j, dense[idx]);
  } else {
    for (const [idx, c] of sparse!) {
      if (c < threshold) continue;
      // Invert the triangular index.
      let i = 0;
      while (at(i, n - 1) < idx) i++;
      pushCandidate(i, idx - at(i, i + 1) + i + 1, c);
    }
  }
  candidates.sort(
    (x, y) =>
      y.wrong - x.wrong ||
      y.common.length - x.common.length ||
      cmp(members[x.i].nameKey, members[y.i].nameKey) ||
      cmp(members[x.j].nameKey, members[y.j].nameKey),
  );
  return candidates.slice(0, MAX_PAIRS_PER_IP).map((c) => ({
    user1: personOf(members[c.i].pupil),
    user2: personOf(members[c.j].pupil),
    commonWrong: c.wrong,
    commonAnswers: c.common,
  }));
}
