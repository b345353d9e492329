import { describe, expect, it } from 'vitest';
import { pickVersionIndex } from '../exercises/versions.js';
import {
  computeAnalysis,
  measureBlurs,
  seventyPercentOf,
  type AnalysisAnswerGroup,
  type AnalysisCurrentAnswer,
  type AnalysisEvent,
  type AnalysisExercise,
  type AnalysisInput,
  type AnalysisPupil,
} from './compute.js';

const T0 = Date.UTC(2026, 2, 14, 9, 0, 0);
const sec = (n: number) => T0 + n * 1000;
const min = (n: number) => sec(n * 60);
const uid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const EX = [1, 2, 3, 4].map((n) => ({ id: uid(900 + n), answerFormat: 'numeric', expected: [String(n * 10)] }));

function pupil(n: number, fields: Partial<AnalysisPupil> = {}): AnalysisPupil {
  return { id: uid(n), firstName: `Prénom${n}`, lastName: `Nom${n}`, startedAt: T0, deadline: min(60), ...fields };
}
const ev = (n: number, eventType: string, at: number, ip: string | null = '10.0.0.1'): AnalysisEvent => ({
  userId: uid(n),
  eventType,
  at,
  ip,
});

/** One save per answer: a group of one row, and the last save of each exercise is the current answer. */
function saves(n: number, list: Array<[exercise: number, answer: string, at: number, ip?: string]>) {
  const groups: AnalysisAnswerGroup[] = list.map(([e, answer, at, ip]) => ({
    userId: uid(n),
    exerciseId: EX[e].id,
    answer,
    ip: ip ?? '10.0.0.1',
    count: 1,
    firstAt: at,
    lastAt: at,
  }));
  const current = new Map<string, AnalysisCurrentAnswer>();
  for (const [e, answer] of [...list].sort((a, b) => a[2] - b[2])) current.set(EX[e].id, { userId: uid(n), exerciseId: EX[e].id, answer });
  return { groups, current: [...current.values()] };
}

function run(
  pupils: AnalysisPupil[],
  events: AnalysisEvent[],
  answers: Array<ReturnType<typeof saves>> = [],
  opts: { now?: number; exercises?: AnalysisExercise[] } = {},
) {
  const input: AnalysisInput = {
    now: opts.now ?? min(24 * 60),
    exercises: opts.exercises ?? EX,
    pupils,
    events,
    answerGroups: answers.flatMap((a) => a.groups),
    current: answers.flatMap((a) => a.current),
  };
  const out = computeAnalysis(input);
  const of = (n: number) => out.individualAnalysis.find((e) => e.user._id === uid(n))!;
  return { ...out, of };
}

describe('blur events and duration', () => {
  it('counts a blur at the very end up to the deadline', () => {
    const { of } = run([pupil(1)], [ev(1, 'blur', min(50))]);
    expect(of(1)).toMatchObject({ totalBlurEvents: 1, totalBlurDuration: 600, score: 10 + 1 });
  });

  it('counts a blur never followed by a focus, with no deadline, up to the last activity', () => {
    const a = saves(1, [[0, '7', min(20)]]);
    const { of } = run([pupil(1, { deadline: null })], [ev(1, 'blur', min(10))], [a]);
    expect(of(1)).toMatchObject({ totalBlurEvents: 1, totalBlurDuration: 600 });
    // Nothing after the blur: the absence has no measurable length.
    const alone = run([pupil(2, { deadline: null })], [ev(2, 'blur', min(10))]);
    expect(alone.of(2)).toMatchObject({ totalBlurEvents: 1, totalBlurDuration: 0, score: 1 });
  });

  it('stops at now while the test is still running', () => {
    const { of } = run([pupil(1)], [ev(1, 'blur', min(30))], [], { now: min(35) });
    expect(of(1).totalBlurDuration).toBe(300);
  });

  it('measures each blur to the next focus, ignores a focus without a blur and merges repeated blurs', () => {
    const events = [
      ev(1, 'focus', min(1)), // no blur before: ignored
      ev(1, 'blur', sec(120)),
      ev(1, 'focus', sec(150)), // 30 s
      ev(1, 'focus', sec(160)), // ignored
      ev(1, 'blur', sec(200)),
      ev(1, 'blur', sec(230)), // same absence
      ev(1, 'focus', sec(290)), // 90 s from the first blur
    ];
    const { of } = run([pupil(1)], events);
    expect(of(1)).toMatchObject({ totalBlurEvents: 2, totalBlurDuration: 120, score: 2 + 2 });
    expect(measureBlurs(events, min(60)).returns).toEqual([sec(150), sec(290)]);
  });

  it('ignores events after the deadline and sorts an unordered timeline', () => {
    const events = [ev(1, 'focus', min(45)), ev(1, 'blur', min(40)), ev(1, 'blur', min(70)), ev(1, 'focus', min(71))];
    const { of } = run([pupil(1)], events);
    expect(of(1)).toMatchObject({ totalBlurEvents: 1, totalBlurDuration: 300 });
  });

  it('rounds blur seconds to whole minutes in the score', () => {
    const events = [ev(1, 'blur', sec(0)), ev(1, 'focus', sec(89)), ev(2, 'blur', sec(0)), ev(2, 'focus', sec(90))];
    const { of } = run([pupil(1), pupil(2)], events);
    expect(of(1).score).toBe(1 + 1);
    expect(of(2).score).toBe(2 + 1);
  });
});

describe('suspicious correct answers', () => {
  const events = [ev(1, 'blur', min(10)), ev(1, 'focus', min(12))];

  it('counts a correct answer 29 s after returning, not one 31 s after', () => {
    const a = saves(1, [
      [0, '10', min(12) + 29_000],
      [1, '20', min(12) + 31_000],
    ]);
    const { of } = run([pupil(1)], events, [a]);
    expect(of(1)).toMatchObject({ suspiciousCorrectAnswers: 1, suspiciousExerciseIds: [EX[0].id], historyExerciseId: EX[0].id });
    expect(of(1).score).toBe(2 + 1 + 1);
  });

  it('counts 30 s exactly, ignores wrong answers, answers before the return and answers already correct before', () => {
    const a = saves(1, [
      [0, '10', min(12) + 30_000], // exactly 30 s: counted
      [1, '21', min(12) + 5_000], // wrong
      [2, '30', min(11)], // while away, before the return
      [3, '40', min(5)], // correct long before…
      [3, '40,0', min(12) + 3_000], // …saved again after the return: not new
    ]);
    const { of } = run([pupil(1)], events, [a]);
    expect(of(1).suspiciousExerciseIds).toEqual([EX[0].id]);
  });

  it('compares with the pupil’s own statement version, comma or dot', () => {
    const twoVersions: AnalysisExercise = { id: uid(950), answerFormat: 'numeric', expected: ['2,5', '7'] };
    const mine = twoVersions.expected[pickVersionIndex(uid(1), twoVersions.id, 2)]!;
    const other = twoVersions.expected.find((x) => x !== mine)!;
    const group = (answer: string, at: number): AnalysisAnswerGroup => ({
      userId: uid(1),
      exerciseId: twoVersions.id,
      answer,
      ip: null,
      count: 1,
      firstAt: at,
      lastAt: at,
    });
    const input = (answer: string) => ({
      groups: [group(answer, min(12) + 10_000)],
      current: [{ userId: uid(1), exerciseId: twoVersions.id, answer }],
    });
    const right = run([pupil(1)], events, [input(mine.replace(',', '.'))], { exercises: [twoVersions] });
    expect(right.of(1).suspiciousCorrectAnswers).toBe(1);
    const wrong = run([pupil(1)], events, [input(other)], { exercises: [twoVersions] });
    expect(wrong.of(1).suspiciousCorrectAnswers).toBe(0);
  });
});

describe('timeFor70Pct', () => {
  it('is ceil(0.7 n) without floating-point error', () => {
    expect([1, 3, 4, 10, 20, 30].map(seventyPercentOf)).toEqual([1, 3, 3, 7, 14, 21]);
  });

  it('is the time from the start until the ceil(0.7 n)-th exercise got its first answer', () => {
    // Four exercises answered at 1, 2, 5 and 9 minutes: n = 4, ceil(2.8) = 3 → 5 minutes.
    const a = saves(1, [
      [0, '1', min(1)],
      [1, '2', min(2)],
      [2, '3', min(5)],
      [3, '4', min(9)],
      [0, '11', min(20)], // a later change keeps the first-answer time
    ]);
    expect(run([pupil(1)], [], [a]).of(1)).toMatchObject({ timeFor70Pct: 300, answered: 4 });
  });

  it('counts only exercises whose current answer is not empty', () => {
    // Exercise 3 was answered then cleared: n = 3, ceil(2.1) = 3 → the third of 1, 2, 5 minutes.
    const a = saves(1, [
      [0, '1', min(1)],
      [1, '2', min(2)],
      [2, '3', min(5)],
      [3, '4', min(3)],
      [3, '', min(6)],
    ]);
    expect(run([pupil(1)], [], [a]).of(1)).toMatchObject({ timeFor70Pct: 300, answered: 3 });
  });

  it('is null without a session start or without any answer', () => {
    const a = saves(1, [[0, '1', min(1)]]);
    const { of } = run([pupil(1, { startedAt: null }), pupil(2)], [], [a]);
    expect(of(1).timeFor70Pct).toBeNull();
    expect(of(2)).toMatchObject({ timeFor70Pct: null, answered: 0, historyExerciseId: null });
  });
});

describe('addresses and pairs', () => {
  it('gives the most used address and lists every address; groups use them all', () => {
    const events = [ev(1, 'blur', min(1), '1.1.1.1'), ev(1, 'focus', min(2), '1.1.1.1'), ev(2, 'blur', min(1), '2.2.2.2')];
    const a = saves(1, [
      [0, '1', min(3), '2.2.2.2'],
      [1, '2', min(4), '2.2.2.2'],
      [2, '3', min(5), '2.2.2.2'],
    ]);
    const { of, pairAnalysis } = run([pupil(1), pupil(2)], events, [a]);
    expect(of(1)).toMatchObject({ ip: '2.2.2.2', ips: ['2.2.2.2', '1.1.1.1'] });
    expect(of(2)).toMatchObject({ ip: '2.2.2.2', ips: ['2.2.2.2'] });
    // 1.1.1.1 has one pupil: no group. 2.2.2.2 has both.
    expect(pairAnalysis.map((g) => [g.ip, g.userIds])).toEqual([['2.2.2.2', [uid(1), uid(2)]]]);
  });

  it('ties between addresses go to the one seen first; a pupil without address has ip null', () => {
    const events = [ev(1, 'blur', min(2), '9.9.9.9'), ev(1, 'focus', min(1), '3.3.3.3'), ev(2, 'blur', min(1), null)];
    const { of } = run([pupil(1), pupil(2)], events);
    expect(of(1).ips).toEqual(['3.3.3.3', '9.9.9.9']);
    expect(of(2)).toMatchObject({ ip: null, ips: [] });
  });

  it('pairs pupils of one address by equal wrong answers, lists every identical answer', () => {
    const ip = '5.5.5.5';
    const answers = [
      saves(1, [
        [0, '7', min(1), ip],
        [1, '20', min(2), ip],
        [2, '8', min(3), ip],
      ]),
      saves(2, [
        [0, '7,0', min(1), ip],
        [1, '20', min(2), ip],
        [2, '9', min(3), ip],
      ]),
      saves(3, [
        [0, '6', min(1), ip],
        [1, '20', min(2), ip],
        [2, '9', min(3), ip],
      ]),
    ];
    const { pairAnalysis } = run([pupil(1), pupil(2), pupil(3)], [], answers);
    expect(pairAnalysis).toHaveLength(1);
    const [group] = pairAnalysis;
    expect(group.userIds).toEqual([uid(1), uid(2), uid(3)]);
    // 1–2 share the wrong 7 (= "7,0"); 2–3 share the wrong 9; 1–3 share no wrong answer: not listed.
    expect(group.pairs.map((p) => [p.user1._id, p.user2._id, p.commonWrong])).toEqual([
      [uid(1), uid(2), 1],
      [uid(2), uid(3), 1],
    ]);
    expect(group.pairs[0].user1).toEqual({ _id: uid(1), firstName: 'Prénom1', lastName: 'Nom1' });
    expect(group.pairs[0].commonAnswers).toEqual([
      { exerciseId: EX[0].id, answer: '7', wrong: true },
      { exerciseId: EX[1].id, answer: '20', wrong: false },
    ]);
  });

  it('does not pair pupils of different addresses', () => {
    const answers = [saves(1, [[0, '7', min(1), '1.1.1.1']]), saves(2, [[0, '7', min(1), '2.2.2.2']])];
    expect(run([pupil(1), pupil(2)], [], answers).pairAnalysis).toEqual([]);
  });

  it('keeps at most 5 pairs per address, the most common wrong answers first', () => {
    const ip = '6.6.6.6';
    // Seven pupils all wrong with 1 on exercise 0 (21 pairs); pupils 6 and 7 also share a wrong 2 on exercise 1.
    const answers = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      saves(n, [
        [0, '1', min(1), ip],
        [1, n >= 6 ? '2' : String(100 + n), min(2), ip],
      ]),
    );
    const pupils = [1, 2, 3, 4, 5, 6, 7].map((n) => pupil(n));
    const { pairAnalysis } = run(pupils, [], answers);
    const pairs = pairAnalysis[0].pairs;
    expect(pairs).toHaveLength(5);
    expect([pairs[0].user1._id, pairs[0].user2._id, pairs[0].commonWrong]).toEqual([uid(6), uid(7), 2]);
    expect(pairs.slice(1).map((p) => p.commonWrong)).toEqual([1, 1, 1, 1]);
    // Ties by name: Nom1–Nom2, Nom1–Nom3, …
    expect(pairs.slice(1).map((p) => [p.user1._id, p.user2._id])).toEqual([
      [uid(1), uid(2)],
      [uid(1), uid(3)],
      [uid(1), uid(4)],
      [uid(1), uid(5)],
    ]);
  });

  it('orders pupils by score, highest first', () => {
    const events = [ev(2, 'blur', min(1)), ev(2, 'focus', min(2)), ev(3, 'blur', min(1)), ev(3, 'focus', min(5))];
    const { individualAnalysis } = run([pupil(1), pupil(2), pupil(3)], events);
    expect(individualAnalysis.map((e) => [e.user._id, e.score])).toEqual([
      [uid(3), 5],
      [uid(2), 2],
      [uid(1), 0],
    ]);
  });
});
