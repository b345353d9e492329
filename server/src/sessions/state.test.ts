import { describe, expect, it } from 'vitest';
import { checkSaveAllowed, computeDeadline, computeSessionState, type TimeRule } from './state.js';

const NOW = new Date('2026-03-10T10:00:00Z');
const at = (offsetSeconds: number) => new Date(NOW.getTime() + offsetSeconds * 1000);
const rule = (r: Partial<TimeRule> = {}): TimeRule => ({ timeDuration: null, accessStart: null, accessEnd: null, ...r });
const state = (r: Partial<TimeRule>, startedOffset?: number, now = NOW) =>
  computeSessionState({ now, rule: rule(r), session: startedOffset === undefined ? null : { startedAt: at(startedOffset) } });

describe('computeSessionState: untimed', () => {
  it('is started and unlimited without a window', () => {
    expect(state({})).toEqual({ status: 'started', remainingTime: null, timed: false, deadline: null });
  });

  it('treats a duration of 0 like no duration', () => {
    expect(state({ timeDuration: 0 })).toEqual({ status: 'started', remainingTime: null, timed: false, deadline: null });
  });

  it('is before until the window opens (start inclusive)', () => {
    expect(state({ accessStart: at(1) }).status).toBe('before');
    expect(state({ accessStart: at(1) }).remainingTime).toBeNull();
    expect(state({ accessStart: at(0) }).status).toBe('started');
    expect(state({ accessStart: at(-3600) }).status).toBe('started');
  });

  it('counts down to the window end and is after from it (end exclusive)', () => {
    expect(state({ accessEnd: at(90) })).toEqual({ status: 'started', remainingTime: 90, timed: false, deadline: at(90) });
    expect(state({ accessEnd: at(0) })).toEqual({ status: 'after', remainingTime: 0, timed: false, deadline: at(0) });
    expect(state({ accessEnd: at(-1) }).status).toBe('after');
  });

  it('rounds remaining time up so a positive remainder never shows 0', () => {
    expect(state({ accessEnd: new Date(NOW.getTime() + 1) }).remainingTime).toBe(1);
    expect(state({ accessEnd: new Date(NOW.getTime() + 1500) }).remainingTime).toBe(2);
  });

  it('ignores a session row when the chapter is untimed', () => {
    expect(state({ accessEnd: at(100) }, -5000)).toMatchObject({ status: 'started', remainingTime: 100 });
  });
});

describe('computeSessionState: timed', () => {
  it('is pending until started, with no remaining time', () => {
    expect(state({ timeDuration: 60 })).toEqual({ status: 'pending', remainingTime: null, timed: true, deadline: null });
    expect(state({ timeDuration: 60, accessStart: at(-10), accessEnd: at(10_000) }).status).toBe('pending');
  });

  it('is before when the window has not opened, even with a session row', () => {
    expect(state({ timeDuration: 60, accessStart: at(10) }).status).toBe('before');
    expect(state({ timeDuration: 60, accessStart: at(10) }, -100).status).toBe('before');
  });

  it('is after when the window closed before the pupil started', () => {
    expect(state({ timeDuration: 60, accessEnd: at(-1) })).toEqual({ status: 'after', remainingTime: 0, timed: true, deadline: at(-1) });
  });

  it('counts down to start + duration', () => {
    expect(state({ timeDuration: 60 }, -600)).toEqual({ status: 'started', remainingTime: 3000, timed: true, deadline: at(3000) });
  });

  it('caps the deadline by the window end', () => {
    expect(state({ timeDuration: 60, accessEnd: at(120) }, -10)).toMatchObject({
      status: 'started',
      remainingTime: 120,
      deadline: at(120),
    });
    expect(state({ timeDuration: 1, accessEnd: at(3600) }, -10)).toMatchObject({ status: 'started', remainingTime: 50, deadline: at(50) });
  });

  it('is after once start + duration passed (exactly at it too)', () => {
    expect(state({ timeDuration: 1 }, -60)).toEqual({ status: 'after', remainingTime: 0, timed: true, deadline: at(0) });
    expect(state({ timeDuration: 1 }, -3600).status).toBe('after');
    expect(state({ timeDuration: 1 }, -59)).toMatchObject({ status: 'started', remainingTime: 1 });
  });

  it('is after when the window closed while started', () => {
    expect(state({ timeDuration: 60, accessEnd: at(-5) }, -100)).toMatchObject({ status: 'after', remainingTime: 0, deadline: at(-5) });
  });
});

describe('computeDeadline', () => {
  it('is null when neither a duration with a start nor a window end applies', () => {
    expect(computeDeadline(rule(), null)).toBeNull();
    expect(computeDeadline(rule({ timeDuration: 30 }), null)).toBeNull();
    expect(computeDeadline(rule({ timeDuration: 0 }), { startedAt: NOW })).toBeNull();
  });

  it('takes the earlier of start + duration and the window end', () => {
    expect(computeDeadline(rule({ timeDuration: 30 }), { startedAt: NOW })).toEqual(at(1800));
    expect(computeDeadline(rule({ timeDuration: 30, accessEnd: at(60) }), { startedAt: NOW })).toEqual(at(60));
    expect(computeDeadline(rule({ accessEnd: at(60) }), null)).toEqual(at(60));
  });
});

describe('checkSaveAllowed', () => {
  const check = (r: Partial<TimeRule>, startedOffset: number | undefined, now: Date) =>
    checkSaveAllowed(state(r, startedOffset, now), now, startedOffset !== undefined);

  it('accepts while started', () => {
    expect(check({}, undefined, NOW)).toEqual({ ok: true });
    expect(check({ timeDuration: 10 }, -60, NOW)).toEqual({ ok: true });
  });

  it('refuses before the window and before starting a timed chapter', () => {
    expect(check({ accessStart: at(60) }, undefined, NOW)).toEqual({ ok: false, message: 'L’épreuve n’est pas encore disponible.' });
    expect(check({ timeDuration: 10 }, undefined, NOW)).toEqual({ ok: false, message: 'Commencez l’épreuve avant de répondre.' });
  });

  it('accepts in-flight saves up to 5 s after the deadline, inclusive', () => {
    // Started 600 s ago for 10 minutes: the deadline is now.
    expect(check({ timeDuration: 10 }, -600, at(0))).toEqual({ ok: true });
    expect(check({ timeDuration: 10 }, -600, at(4.999))).toEqual({ ok: true });
    expect(check({ timeDuration: 10 }, -600, at(5))).toEqual({ ok: true });
    expect(check({ timeDuration: 10 }, -600, at(5.001))).toEqual({ ok: false, message: 'L’épreuve est terminée.' });
  });

  it('applies the grace to the window end of untimed chapters', () => {
    expect(check({ accessEnd: at(-3) }, undefined, NOW)).toEqual({ ok: true });
    expect(check({ accessEnd: at(-6) }, undefined, NOW)).toEqual({ ok: false, message: 'L’épreuve est terminée.' });
  });

  it('gives no grace to a timed chapter that was never started', () => {
    expect(check({ timeDuration: 10, accessEnd: at(-1) }, undefined, NOW)).toEqual({ ok: false, message: 'L’épreuve est terminée.' });
  });
});

describe('a pupil’s own allowance: extra time and incident extensions', () => {
  const withAllowance = (
    r: Partial<TimeRule>,
    startedOffset: number | undefined,
    extraTimePercent: number,
    extensionMinutes = 0,
    now = NOW,
  ) =>
    computeSessionState({
      now,
      rule: rule(r),
      session: startedOffset === undefined ? null : { startedAt: at(startedOffset) },
      allowance: { extraTimePercent, extensionMinutes },
    });

  it('adds 33 % of a 60-minute duration (19 min 48 s), or 50 % (30 min)', () => {
    expect(withAllowance({ timeDuration: 60 }, 0, 33).remainingTime).toBe(60 * 60 + 19 * 60 + 48);
    expect(withAllowance({ timeDuration: 60 }, 0, 50).remainingTime).toBe(90 * 60);
    expect(withAllowance({ timeDuration: 60 }, 0, 0).remainingTime).toBe(60 * 60);
  });

  it('pushes the window end back by the same extra for that pupil only', () => {
    // Started 10 min before a window that closes in 20 min: 30 min without extra is capped at 20.
    expect(withAllowance({ timeDuration: 30, accessEnd: at(20 * 60) }, -10 * 60, 0).remainingTime).toBe(20 * 60);
    // 50 % of 30 min = 15 min more, on both limits: min(45 − 10, 20 + 15) = 35 min.
    expect(withAllowance({ timeDuration: 30, accessEnd: at(20 * 60) }, -10 * 60, 50).remainingTime).toBe(35 * 60);
    // A pupil with extra time may still start after the others' window closed, within their own.
    expect(withAllowance({ timeDuration: 30, accessEnd: at(-60) }, undefined, 50).status).toBe('pending');
    expect(withAllowance({ timeDuration: 30, accessEnd: at(-60) }, undefined, 0).status).toBe('after');
  });

  it('does not give percent extra time on an untimed chapter, but an extension pushes its window end', () => {
    expect(withAllowance({ accessEnd: at(60) }, undefined, 50).remainingTime).toBe(60);
    expect(withAllowance({ accessEnd: at(60) }, undefined, 0, 10).remainingTime).toBe(60 + 600);
  });

  it('reopens an ended session when an extension is added after the end', () => {
    expect(withAllowance({ timeDuration: 30 }, -40 * 60, 0).status).toBe('after');
    expect(withAllowance({ timeDuration: 30 }, -40 * 60, 0, 15)).toMatchObject({ status: 'started', remainingTime: 5 * 60 });
  });
});

describe('a finished session (« Terminer l’épreuve »)', () => {
  const finished = (finishedOffset: number, now = NOW) =>
    computeSessionState({ now, rule: rule({ timeDuration: 60 }), session: { startedAt: at(-10 * 60), finishedAt: at(finishedOffset) } });

  it('is over from the finish, with the finish as deadline, whatever time was left', () => {
    expect(finished(-1)).toEqual({ status: 'after', remainingTime: 0, timed: true, deadline: at(-1), finished: true });
    // Even in the same millisecond (or a clock a little behind the finish's).
    expect(finished(0).status).toBe('after');
    expect(finished(2).status).toBe('after');
  });

  it('takes no save after the finish, not even within the grace given to saves in flight at a time-up', () => {
    const now = at(1);
    expect(checkSaveAllowed(finished(0, now), now, true)).toEqual({ ok: false, message: 'L’épreuve est terminée.' });
    const timeUp = computeSessionState({ now, rule: rule({ timeDuration: 10 }), session: { startedAt: at(-10 * 60) } });
    expect(checkSaveAllowed(timeUp, now, true)).toEqual({ ok: true });
  });

  it('is ignored on an untimed chapter', () => {
    const s = computeSessionState({ now: NOW, rule: rule({ accessEnd: at(60) }), session: { startedAt: at(-60), finishedAt: at(-1) } });
    expect(s).toMatchObject({ status: 'started', remainingTime: 60 });
  });
});
