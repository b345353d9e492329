import { SAVE_GRACE_MS, type SessionStatus } from '@olympe/contract';

/** The part of an access group that decides time (docs/product.md#spec-3 Access group). */
export interface TimeRule {
  /** Minutes; 0 or null means untimed. */
  timeDuration: number | null;
  accessStart: Date | null;
  accessEnd: Date | null;
}

export interface SessionRow {
  startedAt: Date;
  /** Set when the pupil finished early (« Terminer l'épreuve »): the session ends then. */
  finishedAt?: Date | null;
}

/**
 * One pupil's own time on top of the rule: extra time (tiers-temps) in percent of a timed chapter's
 * duration, which also pushes that pupil's window end back by the same minutes, and the minutes an
 * admin added after incidents, which push their end back whatever the chapter.
 */
export interface Allowance {
  extraTimePercent: number;
  extensionMinutes: number;
}

export const NO_ALLOWANCE: Allowance = { extraTimePercent: 0, extensionMinutes: 0 };

/** The extra milliseconds of an allowance for a rule: percent of the duration (timed only) plus extensions. */
export function extraMs(rule: Pick<TimeRule, 'timeDuration'>, allowance: Allowance): number {
  const percent = isTimed(rule) ? (rule.timeDuration! * 60_000 * allowance.extraTimePercent) / 100 : 0;
  return Math.round(percent) + allowance.extensionMinutes * 60_000;
}

export interface SessionState {
  status: SessionStatus;
  /** Seconds left, rounded up; null = unlimited (or not applicable: before, pending). */
  remainingTime: number | null;
  timed: boolean;
  /** min(start + duration, accessEnd), or the finish when the pupil ended early; null when neither applies. */
  deadline: Date | null;
  /** Present (true) once the pupil finished early: no grace after it (decision 43). */
  finished?: true;
}

export const isTimed = (rule: Pick<TimeRule, 'timeDuration'>) => (rule.timeDuration ?? 0) > 0;

/**
 * docs/product.md#design-3 "Sessions and time", pure: `before` until the window opens, `after` once it closed
 * or the personal deadline passed, `pending` for a timed chapter not yet started, else `started`.
 * The deadline follows the current rule (an admin extending a duration helps pupils already started).
 */
export function computeSessionState({
  now,
  rule,
  session,
  allowance = NO_ALLOWANCE,
}: {
  now: Date;
  rule: TimeRule;
  session: SessionRow | null;
  allowance?: Allowance;
}): SessionState {
  const timed = isTimed(rule);
  const t = now.getTime();
  if (rule.accessStart && t < rule.accessStart.getTime()) {
    return { status: 'before', remainingTime: null, timed, deadline: null };
  }
  const deadline = computeDeadline(rule, timed ? session : null, allowance);
  if (timed && !session) {
    // Never started: the window end is the only limit (starting after it is refused).
    if (deadline && t >= deadline.getTime()) return { status: 'after', remainingTime: 0, timed, deadline };
    return { status: 'pending', remainingTime: null, timed, deadline: null };
  }
  if (!deadline) return { status: 'started', remainingTime: null, timed, deadline: null };
  if (timed && session?.finishedAt && deadline.getTime() === session.finishedAt.getTime()) {
    return { status: 'after', remainingTime: 0, timed, deadline, finished: true };
  }
  const left = deadline.getTime() - t;
  if (left <= 0) return { status: 'after', remainingTime: 0, timed, deadline };
  return { status: 'started', remainingTime: Math.ceil(left / 1000), timed, deadline };
}

/**
 * min(start + duration, accessEnd), either missing; null when neither applies. Both are pushed back
 * by the pupil's allowance (extraMs): their own duration and their own window end. A finish ends a
 * timed session at once, whatever is left (an extension added later clears it: allowances.ts).
 */
export function computeDeadline(rule: TimeRule, session: SessionRow | null, allowance: Allowance = NO_ALLOWANCE): Date | null {
  const extra = extraMs(rule, allowance);
  const candidates: number[] = [];
  if (session && isTimed(rule)) candidates.push(session.startedAt.getTime() + rule.timeDuration! * 60_000 + extra);
  if (rule.accessEnd) candidates.push(rule.accessEnd.getTime() + extra);
  if (session?.finishedAt && isTimed(rule)) candidates.push(session.finishedAt.getTime());
  return candidates.length ? new Date(Math.min(...candidates)) : null;
}

export type SaveVerdict = { ok: true } | { ok: false; message: string };

export const FINISHED_MESSAGE = 'L’épreuve est terminée.';
export const NOT_YET_MESSAGE = 'L’épreuve n’est pas encore disponible.';
export const NOT_STARTED_MESSAGE = 'Commencez l’épreuve avant de répondre.';

/**
 * Whether an answer may be saved now: while started, and up to SAVE_GRACE_MS after the deadline
 * for saves that were in flight (docs/product.md#design-3). A timed chapter never started takes no answer.
 */
export function checkSaveAllowed(state: SessionState, now: Date, started: boolean): SaveVerdict {
  if (state.status === 'started') return { ok: true };
  if (state.status === 'before') return { ok: false, message: NOT_YET_MESSAGE };
  if (state.status === 'pending') return { ok: false, message: NOT_STARTED_MESSAGE };
  // The grace is for saves already in flight when time ran out; a pupil who chose to finish had
  // their pending answers sent first (the page flushes its queue before asking the server).
  const inGrace =
    !state.finished && state.deadline !== null && (!state.timed || started) && now.getTime() <= state.deadline.getTime() + SAVE_GRACE_MS;
  return inGrace ? { ok: true } : { ok: false, message: FINISHED_MESSAGE };
}
