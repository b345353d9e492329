import {
  formatFrenchDate,
  formatGrade,
  formatParisDateTime,
  formatPoints,
  formatTotal,
  frenchHours,
  frenchTime,
  isoToParisWallClock,
  parseDecimal,
  type AnswerFormat,
  type MyAnswer,
  type SessionStatus,
} from '@olympe/contract';

/** docs/product.md#spec-9: the countdown is shown as mm:ss (minutes keep growing past 59 for long windows). */
export function formatRemaining(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** docs/product.md#spec-2: "Contenu disponible à partir du {date} jusqu'au {date}." in Paris time. */
export function availabilityText(accessStart: string | null, accessEnd: string | null): string | null {
  if (!accessStart && !accessEnd) return null;
  const from = accessStart ? ` à partir du ${formatParisDateTime(accessStart)}` : '';
  const until = accessEnd ? ` jusqu’au ${formatParisDateTime(accessEnd)}` : '';
  return `Contenu disponible${from}${until}.`;
}

/** A test's length as French reads it: « 45 minutes », « 1 heure », « 1 h 30 » (no-break spaces around the h). */
export function formatDuration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return `${minutes} minute${minutes > 1 ? 's' : ''}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (rest === 0) return `${hours} heure${hours > 1 ? 's' : ''}`;
  return frenchHours(hours, rest);
}

/** An instant in Paris time as it follows a verb: « à 20 h 35 », or « le 26 novembre 2026 à 0 h 15 » when it is not on `today`’s Paris date. */
export function parisMoment(instant: string | Date, today: string | Date): string {
  const [date, time] = isoToParisWallClock(instant).split('T');
  const clock = frenchTime(time);
  return date === isoToParisWallClock(today).slice(0, 10) ? `à ${clock}` : `le ${formatFrenchDate(date)} à ${clock}`;
}

/**
 * What starting now commits the pupil to: the end (start + duration, or the window end when it
 * comes first, as the server decides) and the time they will really have.
 */
export function startPlan(duration: number, accessEnd: string | null, now: number): { end: Date; seconds: number; capped: boolean } {
  const full = now + duration * 1000;
  const windowEnd = accessEnd ? Date.parse(accessEnd) : Infinity;
  const end = Math.min(full, windowEnd);
  return { end: new Date(end), seconds: Math.max(0, Math.floor((end - now) / 1000)), capped: windowEnd < full };
}

/**
 * The pupil's own extra time (tiers-temps), said on a timed chapter's page and in the start
 * confirmation; the durations shown (the server's `duration`) already include it. A no-break space
 * keeps « 33 % » on one line.
 */
export function extraTimeText(percent: number | null | undefined): string | null {
  if (!percent || percent <= 0) return null;
  return `Temps supplémentaire : ${percent}\u202f% (inclus dans la durée affichée)`;
}

/** Under this many seconds the countdown turns red and the first warning shows. */
export const FIRST_WARNING_SECONDS = 5 * 60;
const LAST_WARNING_SECONDS = 60;

/**
 * The warning shown (and announced) as the end nears: at 5 minutes, then at 1 minute left; none
 * when time is unlimited or over.
 */
export function timeWarning(remaining: number | null): string | null {
  if (remaining === null || remaining <= 0) return null;
  if (remaining <= LAST_WARNING_SECONDS) return 'Il reste moins d’une minute. Vos réponses sont enregistrées au fur et à mesure.';
  if (remaining <= FIRST_WARNING_SECONDS) return 'Il reste moins de 5 minutes.';
  return null;
}

export type ChapterView = 'paper' | 'ended' | 'before' | 'pending' | 'exercises';

/**
 * Which block the page shows, in docs/product.md#spec-2's order: the paper panel for offline chapters outside
 * analysis mode; the end message for `after` or no time left; `before`; the start button; else
 * the exercises. Analysis mode always lists the exercises (with scores).
 */
export function chapterView(input: {
  offline: boolean;
  analysis: boolean;
  status: SessionStatus;
  remainingTime: number | null;
}): ChapterView {
  if (input.analysis) return 'exercises';
  if (input.offline) return 'paper';
  if (input.status === 'after' || input.remainingTime === 0) return 'ended';
  if (input.status === 'before') return 'before';
  if (input.status === 'pending') return 'pending';
  return 'exercises';
}

/** docs/product.md#spec-4: the total is the sum of numeric grades of answerable exercises; unset counts 0, `X` is ignored. */
export function totalScore(exercises: ReadonlyArray<{ _id: string; answerFormat: AnswerFormat }>, answers: readonly MyAnswer[]): number {
  const byExercise = new Map(answers.map((a) => [a.exercise, a]));
  let total = 0;
  for (const e of exercises) {
    if (e.answerFormat === 'none') continue;
    const grade = byExercise.get(e._id)?.grade;
    const n = grade ? parseDecimal(grade) : null;
    if (n !== null) total += n;
  }
  return Math.round(total * 1000) / 1000;
}

/**
 * Key-press filter of the places field (docs/product.md#spec-5): printable keys other than digits and the dot are
 * refused; shortcuts and navigation pass. Numeric answers take every key (docs/decisions.md).
 */
export function isRefusedKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (event.key.length !== 1) return false;
  return !/[0-9.]/.test(event.key);
}

/** docs/product.md#spec-2: in analysis mode an exercise is hidden when its statement is empty and it has no grade comment. */
export function isHiddenInAnalysis(statement: string, answer: MyAnswer | undefined): boolean {
  return statement.trim() === '' && !answer?.grade_comment?.trim();
}

/** Decision 61: « 7 / 12 » (decimal comma) once the server sends the maximum; the bare total before. */
export function totalText(total: number, maxTotal: number | undefined): string {
  return maxTotal === undefined ? String(total) : formatTotal(total, maxTotal);
}

/** Decision 61: an exercise's score against its points (« 1,5 / 2 »; « X » stays as is; none is 0). */
export function scoreText(grade: string | null, maxPoints: number | undefined): string {
  if (maxPoints === undefined) return grade === null ? '0' : formatGrade(grade);
  const n = grade === null ? 0 : parseDecimal(grade);
  return n === null ? `${grade}\u00a0/\u00a0${formatPoints(maxPoints)}` : formatTotal(n, maxPoints);
}
