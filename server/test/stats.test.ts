import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, auditLog, chapters, exercises, statementVersions } from '../src/db/schema.js';
import { pickVersionIndex } from '../src/exercises/versions.js';
import { insertChapter } from './fixtures/chapter.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
let member: { id: string; headers: Record<string, string> };
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
  member = await createUser(t, 'member');
});
afterAll(async () => t.close());

const db = () => t.database.db;
let seq = 1;

/**
 * A chapter with a numeric exercise (4 points, versions expecting 10 and 20) and a PDF one. Version
 * 0's pupils mostly answer 12 (a wrong corrigé), version 1's mostly 20; grades 4 or 0 as the automatic
 * correction gives them, one copy graded by a corrector.
 */
async function setup() {
  const {
    chapterId,
    exerciseIds: [numeric, pdf],
  } = await insertChapter(db(), {
    exercises: [
      {
        title: 'Somme',
        answerFormat: 'numeric',
        maxPoints: 4,
        versions: [
          { content: 'A', answer: '10' },
          { content: 'B', answer: '20' },
        ],
      },
      { title: 'Preuve', answerFormat: 'pdf', maxPoints: 7 },
    ],
  });
  const byVersion: Array<Array<{ id: string }>> = [[], []];
  while (byVersion[0].length < 6 || byVersion[1].length < 4) {
    const pupil = await createUser(t, 'pupil');
    byVersion[pickVersionIndex(pupil.id, numeric, 2)].push(pupil);
  }
  const rowsToInsert: Array<typeof answers.$inferInsert> = [];
  // Version 0: « 12 », « 12,0 », « 12 », « 10 », « 7 », and one corrector-graded « 12 ».
  ['12', '12,0', '12', '10', '7', '12'].forEach((answer, i) => {
    const u = byVersion[0][i];
    const byCorrector = i === 5;
    rowsToInsert.push({
      userId: u.id,
      exerciseId: numeric,
      answer,
      seq: seq++,
      grade: answer === '10' ? '4' : byCorrector ? '1' : '0',
      graderId: byCorrector ? member.id : null,
    });
  });
  // Version 1: « 20 » × 3, and an empty answer.
  ['20', '20', '20', ''].forEach((answer, i) => {
    rowsToInsert.push({ userId: byVersion[1][i].id, exerciseId: numeric, answer, seq: seq++, grade: answer === '' ? null : '4' });
  });
  // An older save never counts: the current answer is the highest seq.
  rowsToInsert.push({ userId: byVersion[1][0].id, exerciseId: numeric, answer: '99', seq: 0 });
  rowsToInsert.push({ userId: byVersion[0][0].id, exerciseId: pdf, answer: 'pdfs/a.pdf', seq: seq++, grade: '6.5' });
  rowsToInsert.push({ userId: byVersion[0][1].id, exerciseId: pdf, answer: 'pdfs/b.pdf', seq: seq++ });
  await db().insert(answers).values(rowsToInsert);
  return { chapterId, numeric, pdf, byVersion };
}

describe('GET /stats/{chapterId}', () => {
  it('gives answered, graded, mean, median, distribution and the frequent answers per version, with the errata flag', async () => {
    const s = await setup();
    const res = await inject(t, { method: 'GET', url: `/api/stats/${s.chapterId}`, headers: member.headers });
    expect(res.status).toBe(200);
    const [numeric, pdf] = res.body.exercises;
    // Grades: 4 ×1 (v0) + 4 ×3 (v1), 0 ×4, 1 ×1.
    expect(numeric).toMatchObject({
      _id: s.numeric,
      answered: 9,
      graded: 9,
      distribution: [
        { grade: 0, count: 4 },
        { grade: 1, count: 1 },
        { grade: 4, count: 4 },
      ],
      median: 1,
    });
    expect(numeric.mean).toBeCloseTo(17 / 9, 2);
    expect(numeric.versions).toEqual([
      {
        version: 0,
        expected: '10',
        pupils: 6,
        top: [
          { answer: '12', count: 4, expected: false },
          { answer: '10', count: 1, expected: true },
          { answer: '7', count: 1, expected: false },
        ],
        flagged: true,
      },
      { version: 1, expected: '20', pupils: 3, top: [{ answer: '20', count: 3, expected: true }], flagged: false },
    ]);
    expect(pdf).toMatchObject({ answered: 2, graded: 1, mean: 6.5, median: 6.5, distribution: [{ grade: 6.5, count: 1 }], versions: [] });
  });

  it('is for correctors and admins only, and hides a binned exercise', async () => {
    const s = await setup();
    expect(
      (await inject(t, { method: 'GET', url: `/api/stats/${s.chapterId}`, headers: (await createUser(t, 'pupil')).headers })).status,
    ).toBe(403);
    expect(
      (await inject(t, { method: 'GET', url: `/api/stats/${s.chapterId}`, headers: (await createUser(t, 'teacher')).headers })).status,
    ).toBe(403);
    await inject(t, { method: 'DELETE', url: `/api/exos/${s.pdf}`, headers: admin });
    const res = await inject(t, { method: 'GET', url: `/api/stats/${s.chapterId}`, headers: admin });
    expect(res.body.exercises.map((e: { _id: string }) => e._id)).toEqual([s.numeric]);
  });
});

describe('POST /stats/{chapterId}/errata', () => {
  it('changes one version’s expected answer and re-runs the automatic correction for that version only, audited', async () => {
    const s = await setup();
    const bad = await inject(t, {
      method: 'POST',
      url: `/api/stats/${s.chapterId}/errata`,
      headers: admin,
      payload: { exerciseId: s.numeric, version: 0, answer: 'douze' },
    });
    expect(bad).toMatchObject({ status: 400, body: { message: 'La réponse attendue n’est pas un nombre.' } });
    const forMember = await inject(t, {
      method: 'POST',
      url: `/api/stats/${s.chapterId}/errata`,
      headers: member.headers,
      payload: { exerciseId: s.numeric, version: 0, answer: '12' },
    });
    expect(forMember.status).toBe(403);
    const missing = await inject(t, {
      method: 'POST',
      url: `/api/stats/${s.chapterId}/errata`,
      headers: admin,
      payload: { exerciseId: s.numeric, version: 2, answer: '12' },
    });
    expect(missing.status).toBe(404);
    expect(
      (await db().select().from(statementVersions).where(eq(statementVersions.exerciseId, s.numeric))).map((v) => v.answer).sort(),
    ).toEqual(['10', '20']);

    const res = await inject(t, {
      method: 'POST',
      url: `/api/stats/${s.chapterId}/errata`,
      headers: admin,
      payload: { exerciseId: s.numeric, version: 0, answer: '12' },
    });
    // « 12 », « 12,0 », « 12 » now right (4), « 10 » now wrong (0); « 7 » stays 0; the corrector's grade stays.
    expect(res).toMatchObject({
      status: 200,
      body: { graded: 4, message: 'Réponse attendue de la version 1 : 12. 4 copies notées à nouveau.' },
    });
    const grades = await db()
      .select({ userId: answers.userId, answer: answers.answer, grade: answers.grade })
      .from(answers)
      .where(eq(answers.exerciseId, s.numeric));
    const gradeOf = (userId: string) => grades.find((g) => g.userId === userId && g.answer !== '99')!.grade;
    expect(s.byVersion[0].slice(0, 6).map((u) => gradeOf(u.id))).toEqual(['4', '4', '4', '0', '0', '1']);
    expect(s.byVersion[1].slice(0, 3).map((u) => gradeOf(u.id))).toEqual(['4', '4', '4']);
    const [log] = await db().select().from(auditLog).where(eq(auditLog.targetId, s.numeric));
    expect(log).toMatchObject({ action: 'stats.errata', details: { version: 0, oldAnswer: '10', newAnswer: '12', graded: 4 } });
    const after = await inject(t, { method: 'GET', url: `/api/stats/${s.chapterId}`, headers: admin });
    expect(after.body.exercises[0].versions[0]).toMatchObject({
      expected: '12',
      flagged: false,
      top: [
        { answer: '12', count: 4, expected: true },
        { answer: '10', count: 1, expected: false },
        { answer: '7', count: 1, expected: false },
      ],
    });
  });
});

describe('statistics at 10,000 pupils', () => {
  it('answers in one aggregate query, measured', async () => {
    const [c] = await db().insert(chapters).values({ title: 'Grand tour' }).returning();
    const list = await db()
      .insert(exercises)
      .values(
        [0, 1, 2, 3, 4].map((position) => ({
          chapterId: c.id,
          position,
          title: `Exercice ${position + 1}`,
          answerFormat: position < 4 ? 'numeric' : 'pdf',
          maxPoints: 5,
        })),
      )
      .returning();
    for (const e of list) {
      await db()
        .insert(statementVersions)
        .values([0, 1, 2].map((position) => ({ exerciseId: e.id, position, content: 'x', answer: String(position + 1) })));
    }
    await db().execute(sql`
      INSERT INTO users (email, first_name, last_name)
      SELECT 'stats-' || i || '@exemple.fr', 'Élève', 'N' || i FROM generate_series(1, 10000) AS i`);
    await db().execute(sql`
      INSERT INTO answers (user_id, exercise_id, answer, seq, grade)
      SELECT u.id, e.id, ((row_number() OVER ()) % 7)::text, 1, ((row_number() OVER ()) % 6)::text
      FROM users u CROSS JOIN exercises e
      WHERE u.email LIKE 'stats-%' AND e.chapter_id = ${c.id}::uuid`);
    await db().execute(sql`ANALYZE answers`);
    const started = performance.now();
    const res = await inject(t, { method: 'GET', url: `/api/stats/${c.id}`, headers: admin });
    const ms = performance.now() - started;
    console.log(`statistics of 10,000 pupils × 5 exercises: ${ms.toFixed(0)} ms`);
    expect(res.status).toBe(200);
    expect(res.body.exercises).toHaveLength(5);
    expect(res.body.exercises.every((e: { answered: number; graded: number }) => e.answered === 10000 && e.graded === 10000)).toBe(true);
    expect(res.body.exercises[0].versions.map((v: { pupils: number }) => v.pupils).reduce((a: number, b: number) => a + b, 0)).toBe(10000);
    expect(ms).toBeLessThan(5000);
  }, 120_000);
});
