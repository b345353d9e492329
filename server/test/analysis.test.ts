import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAnalysisDemo } from '../src/analysis/demo.js';
import { seedChaptersDemo } from '../src/chapters/demo.js';
import { accessGroups, chapters, exercises, focusEvents, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, loginAs, PUPIL_PROFILE, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const minutes = (n: number) => new Date(Date.now() + n * 60_000);
const analysis = (chapterId: string, headers: Headers) => inject(t, { method: 'GET', url: `/api/answer/analysis/${chapterId}`, headers });

/** A timed chapter (60 min) open now, three numeric exercises (expected 10, 20, 30) and a PDF one. */
async function timedChapter(title = 'Tour chronométré') {
  const db = t.database.db;
  const [c] = await db.insert(chapters).values({ title }).returning();
  await db
    .insert(accessGroups)
    .values({ chapterId: c.id, position: 0, timeDuration: 60, accessStart: minutes(-300), accessEnd: minutes(300) });
  const list = await db
    .insert(exercises)
    .values([
      { chapterId: c.id, position: 0, title: 'Un', answerFormat: 'numeric' },
      { chapterId: c.id, position: 1, title: 'Deux', answerFormat: 'numeric' },
      { chapterId: c.id, position: 2, title: 'Trois', answerFormat: 'numeric' },
      { chapterId: c.id, position: 3, title: 'Preuve', answerFormat: 'pdf' },
    ])
    .returning();
  await db
    .insert(statementVersions)
    .values(list.slice(0, 3).map((e, i) => ({ exerciseId: e.id, position: 0, content: 'Combien ?', answer: String((i + 1) * 10) })));
  return { chapterId: c.id, ex: list.map((e) => e.id) };
}

/** A pupil who starts the chapter from the given address (X-Forwarded-For: trustProxy is on). */
async function startingPupil(chapterId: string, firstName: string, lastName: string, ip: string) {
  const p = await createUser(t, 'pupil', { ...PUPIL_PROFILE, firstName, lastName });
  const headers = { ...p.headers, 'x-forwarded-for': ip };
  expect((await inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers })).status).toBe(200);
  return { id: p.id, headers };
}

const event = async (chapterId: string, headers: Headers, eventType: 'focus' | 'blur') => {
  const res = await inject(t, { method: 'POST', url: `/api/chapter/event/${chapterId}`, headers, payload: { eventType } });
  expect(res.body).toEqual({ recorded: true });
};
const answer = async (headers: Headers, exerciseId: string, value: string) => {
  expect((await inject(t, { method: 'POST', url: '/api/answer', headers, payload: { exerciseId, answer: value } })).status).toBe(200);
};

/**
 * Moves a pupil's session two hours back (so the 60-minute deadline is past), their events (in the
 * order they were recorded) and their answers to the given offsets in seconds from the start.
 */
async function setTimeline(chapterId: string, userId: string, eventOffsets: number[], answerOffsets: Record<string, number>) {
  const db = t.database.db;
  await db.execute(
    sql`UPDATE chapter_sessions SET started_at = now() - interval '2 hours' WHERE chapter_id = ${chapterId} AND user_id = ${userId}`,
  );
  const start = sql`(SELECT started_at FROM chapter_sessions WHERE chapter_id = ${chapterId} AND user_id = ${userId})`;
  const events = await db
    .select({ id: focusEvents.id })
    .from(focusEvents)
    .where(sql`chapter_id = ${chapterId} AND user_id = ${userId}`)
    .orderBy(focusEvents.id);
  for (const [i, e] of events.entries()) {
    await db.execute(sql`UPDATE focus_events SET created_at = ${start} + make_interval(secs => ${eventOffsets[i]}) WHERE id = ${e.id}`);
  }
  for (const [exerciseId, offset] of Object.entries(answerOffsets)) {
    await db.execute(
      sql`UPDATE answers SET created_at = ${start} + make_interval(secs => ${offset}) WHERE user_id = ${userId} AND exercise_id = ${exerciseId}`,
    );
  }
}

describe('guards and bad input', () => {
  it('answers 401 to anonymous callers and 403 to pupils, teachers and members', async () => {
    const { chapterId } = await timedChapter();
    const expected: Array<[RoleName, number]> = [
      ['anonymous', 401],
      ['pupil', 403],
      ['teacher', 403],
      ['member', 403],
      ['admin', 200],
    ];
    for (const [role, status] of expected) {
      const res = await analysis(chapterId, await loginAs(t, role));
      expect([role, res.status]).toEqual([role, status]);
      if (status !== 200) expect(typeof res.body.message).toBe('string');
    }
  });

  it('gives 400 in French for a malformed id and 404 for an unknown chapter', async () => {
    const admin = await loginAs(t, 'admin');
    const bad = await analysis('pas-un-id', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Données invalides/);
    const missing = await analysis('00000000-0000-4000-8000-0000000000ff', admin);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Chapitre introuvable.');
  });

  it('answers empty lists for a chapter nobody started', async () => {
    const { chapterId, ex } = await timedChapter('Personne');
    const res = await analysis(chapterId, await loginAs(t, 'admin'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ chapter: { _id: chapterId, title: 'Personne' }, individualAnalysis: [], pairAnalysis: [] });
    expect(res.body.exercises.map((e: { _id: string }) => e._id)).toEqual(ex);
  });
});

describe('GET /answer/analysis/{chapterId}', () => {
  it('computes blur figures, suspicious answers, time to 70 %, addresses and pairs from real calls', async () => {
    const { chapterId, ex } = await timedChapter('Tour 1');
    const ada = await startingPupil(chapterId, 'Ada', 'Lovelace', '1.1.1.1');
    const blaise = await startingPupil(chapterId, 'Blaise', 'Pascal', '1.1.1.1');
    const carl = await startingPupil(chapterId, 'Carl', 'Gauss', '2.2.2.2');

    // Ada: away 600 → 720 s, then from 3000 s with no return (to the deadline at 3600 s).
    await event(chapterId, ada.headers, 'blur');
    await event(chapterId, ada.headers, 'focus');
    await event(chapterId, ada.headers, 'blur');
    await answer(ada.headers, ex[0], '7'); // wrong
    await answer(ada.headers, ex[1], '20'); // correct, 20 s after the return: suspicious
    await answer(ada.headers, ex[2], '30'); // correct, 40 s after: not
    await setTimeline(chapterId, ada.id, [600, 720, 3000], { [ex[0]]: 100, [ex[1]]: 740, [ex[2]]: 760 });

    // Blaise, same address: the same wrong 7, the same 20, another wrong answer; no event.
    await answer(blaise.headers, ex[0], '7,0');
    await answer(blaise.headers, ex[1], '20');
    await answer(blaise.headers, ex[2], '31');
    await setTimeline(chapterId, blaise.id, [], { [ex[0]]: 200, [ex[1]]: 300, [ex[2]]: 900 });

    // Carl, another address: the same wrong 7 (not a pair), one short absence of 20 s.
    await event(chapterId, carl.headers, 'blur');
    await event(chapterId, carl.headers, 'focus');
    await answer(carl.headers, ex[0], '7');
    await setTimeline(chapterId, carl.id, [60, 80], { [ex[0]]: 120 });

    const res = await analysis(chapterId, await loginAs(t, 'admin'));
    expect(res.status).toBe(200);
    const entries = res.body.individualAnalysis;
    expect(entries.map((e: { user: { lastName: string } }) => e.user.lastName)).toEqual(['Lovelace', 'Gauss', 'Pascal']);
    expect(entries[0]).toEqual({
      user: { _id: ada.id, firstName: 'Ada', lastName: 'Lovelace' },
      ip: '1.1.1.1',
      ips: ['1.1.1.1'],
      totalBlurEvents: 2,
      totalBlurDuration: 720,
      suspiciousCorrectAnswers: 1,
      suspiciousExerciseIds: [ex[1]],
      timeFor70Pct: 760,
      answered: 3,
      historyExerciseId: ex[1],
      score: 12 + 2 + 1,
    });
    expect(entries[1]).toMatchObject({ ip: '2.2.2.2', totalBlurEvents: 1, totalBlurDuration: 20, score: 0 + 1, timeFor70Pct: 120 });
    expect(entries[2]).toMatchObject({ totalBlurEvents: 0, totalBlurDuration: 0, score: 0, timeFor70Pct: 900, historyExerciseId: ex[0] });

    expect(res.body.pairAnalysis).toEqual([
      {
        ip: '1.1.1.1',
        userIds: [ada.id, blaise.id],
        pairs: [
          {
            user1: { _id: ada.id, firstName: 'Ada', lastName: 'Lovelace' },
            user2: { _id: blaise.id, firstName: 'Blaise', lastName: 'Pascal' },
            commonWrong: 1,
            commonAnswers: [
              { exerciseId: ex[0], answer: '7', wrong: true },
              { exerciseId: ex[1], answer: '20', wrong: false },
            ],
          },
        ],
      },
    ]);
  });

  it('groups a pupil under every address used', async () => {
    const { chapterId, ex } = await timedChapter('Deux adresses');
    const home = await startingPupil(chapterId, 'Émilie', 'Du Châtelet', '3.3.3.3');
    const school = await startingPupil(chapterId, 'Sofia', 'Kovalevskaïa', '4.4.4.4');
    await answer(home.headers, ex[0], '5');
    await answer({ ...home.headers, 'x-forwarded-for': '4.4.4.4' }, ex[1], '6');
    await answer({ ...home.headers, 'x-forwarded-for': '4.4.4.4' }, ex[2], '9');
    await answer(school.headers, ex[1], '6');

    const res = await analysis(chapterId, await loginAs(t, 'admin'));
    const emilie = res.body.individualAnalysis.find((e: { user: { _id: string } }) => e.user._id === home.id);
    expect(emilie).toMatchObject({ ip: '4.4.4.4', ips: ['4.4.4.4', '3.3.3.3'] });
    expect(res.body.pairAnalysis).toEqual([
      {
        ip: '4.4.4.4',
        userIds: [home.id, school.id],
        pairs: [
          expect.objectContaining({
            user1: expect.objectContaining({ _id: home.id }),
            commonWrong: 1,
            commonAnswers: [{ exerciseId: ex[1], answer: '6', wrong: true }],
          }),
        ],
      },
    ]);
  });
});

describe('pupils without a session, and the demonstration data', () => {
  it('lists a pupil who answered an untimed chapter, with no time to 70 %', async () => {
    const db = t.database.db;
    const [c] = await db.insert(chapters).values({ title: 'Libre' }).returning();
    await db.insert(accessGroups).values({ chapterId: c.id, position: 0 });
    const [e] = await db.insert(exercises).values({ chapterId: c.id, position: 0, title: 'Un', answerFormat: 'numeric' }).returning();
    await db.insert(statementVersions).values({ exerciseId: e.id, position: 0, content: '?', answer: '1' });
    const p = await createUser(t, 'pupil', { ...PUPIL_PROFILE, firstName: 'Hypatie', lastName: 'd’Alexandrie' });
    await answer({ ...p.headers, 'x-forwarded-for': '7.7.7.7' }, e.id, '1');
    const res = await analysis(c.id, await loginAs(t, 'admin'));
    expect(res.body.individualAnalysis).toEqual([
      expect.objectContaining({
        user: { _id: p.id, firstName: 'Hypatie', lastName: 'd’Alexandrie' },
        ip: '7.7.7.7',
        timeFor70Pct: null,
        answered: 1,
        score: 0,
      }),
    ]);
  });

  it('seedAnalysisDemo gives the timed demo chapter scores and a suspicious pair', async () => {
    const demo = await seedChaptersDemo(t.database.db);
    const pupils = [];
    for (let i = 0; i < 8; i++) pupils.push((await createUser(t, 'pupil', { ...PUPIL_PROFILE, lastName: `Démo ${i}` })).id);
    expect(await seedAnalysisDemo(t.database.db, { chapterId: demo.timedId, pupilIds: pupils })).toBeGreaterThan(10);
    const res = await analysis(demo.timedId, await loginAs(t, 'admin'));
    expect(res.status).toBe(200);
    expect(res.body.individualAnalysis).toHaveLength(8);
    expect(res.body.individualAnalysis[0]).toMatchObject({
      user: { _id: pupils[0] },
      totalBlurEvents: 4,
      totalBlurDuration: 1935,
      suspiciousCorrectAnswers: 3,
      score: 32 + 4 + 3,
    });
    const school = res.body.pairAnalysis.find((g: { ip: string }) => g.ip === '203.0.113.10');
    expect(school.userIds).toHaveLength(4);
    expect(school.pairs[0]).toMatchObject({ user1: { _id: pupils[1] }, user2: { _id: pupils[2] }, commonWrong: 2 });
  });
});
