import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, chapters, exercises, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;

/** An open chapter with one numeric exercise per expected answer (one version each). */
async function chapterExpecting(expected: string[]) {
  const db = t.database.db;
  const [c] = await db.insert(chapters).values({ title: 'Nombres' }).returning();
  await db.insert(accessGroups).values({ chapterId: c.id, position: 0 });
  const rows = await db
    .insert(exercises)
    .values(expected.map((_, i) => ({ chapterId: c.id, position: i, title: `Exercice ${i + 1}`, answerFormat: 'numeric' as const })))
    .returning();
  await db
    .insert(statementVersions)
    .values(rows.map((e, i) => ({ exerciseId: e.id, position: 0, content: 'Combien ?', answer: expected[i] })));
  return { chapterId: c.id, ids: rows.map((e) => e.id) };
}

const save = (headers: Headers, payload: Record<string, unknown>) => inject(t, { method: 'POST', url: '/api/answer', headers, payload });
const stored = async (userId: string, exerciseId: string) =>
  t.database.db
    .select()
    .from(answers)
    .where(and(eq(answers.userId, userId), eq(answers.exerciseId, exerciseId)))
    .orderBy(desc(answers.seq));

describe('numeric answers as a French pupil types them', () => {
  it('stores a number exactly as typed: comma, minus, grouped thousands, fraction', async () => {
    const typed = ['0,5', '-3', '\u22123', '+3', '1 000', '1\u202f000,5', '.5', '1/2', '-1/2', '007'];
    const { ids } = await chapterExpecting(['1']);
    const p = await createUser(t, 'pupil', PUPIL_PROFILE);
    for (const [i, answer] of typed.entries()) {
      const res = await save(p.headers, { exerciseId: ids[0], answer, seq: i + 1 });
      expect(res.status, answer).toBe(200);
    }
    expect((await stored(p.id, ids[0])).map((r) => r.answer).reverse()).toEqual(typed);
  });

  it('refuses what is not a number with a French 400 giving the reason, and stores nothing', async () => {
    const { ids } = await chapterExpecting(['1']);
    const p = await createUser(t, 'pupil', PUPIL_PROFILE);
    const cases: Array<[string, RegExp]> = [
      ['abc', /seuls les chiffres/],
      ['1e3', /«\se\s»/],
      ['--1', /un seul signe/],
      ['1,2,3', /un seul séparateur décimal/],
      ['1/0', /diviser par zéro/],
      ['1/', /dénominateur manque/],
      ['\u0663', /chiffres 0 à 9/],
      ['\u221e', /seuls les chiffres/],
    ];
    for (const [i, [answer, reason]] of cases.entries()) {
      const res = await save(p.headers, { exerciseId: ids[0], answer, seq: i + 1 });
      expect(res.status, answer).toBe(400);
      expect(res.body.message).toMatch(/^Réponse non reconnue\s: /);
      expect(res.body.message).toMatch(reason);
    }
    expect(await stored(p.id, ids[0])).toHaveLength(0);
  });

  it('refuses a bad value on the fast path too (after a first save), and always lets the answer be cleared', async () => {
    const { ids } = await chapterExpecting(['1']);
    const p = await createUser(t, 'pupil', PUPIL_PROFILE);
    expect((await save(p.headers, { exerciseId: ids[0], answer: '4', seq: 1 })).status).toBe(200);
    const bad = await save(p.headers, { exerciseId: ids[0], answer: '4a', seq: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Réponse non reconnue\s: /);
    expect((await save(p.headers, { exerciseId: ids[0], answer: '', seq: 3 })).status).toBe(200);
    expect((await save(p.headers, { exerciseId: ids[0], answer: '  ', seq: 4 })).status).toBe(200);
    expect((await stored(p.id, ids[0])).map((r) => r.answer)).toEqual(['  ', '', '4']);
  });

  it('grades what was typed right by exact comparison in the automatic correction', async () => {
    const { chapterId, ids } = await chapterExpecting(['0,5', '-3', '1000', '0,5', '0,3', '-0,5']);
    const admin = await createUser(t, 'admin');
    const p = await createUser(t, 'pupil', PUPIL_PROFILE);
    const typed = ['0,5', '\u22123', '1 000', '1/2', '0,30000000000000004', '-1/2'];
    for (const [i, answer] of typed.entries()) expect((await save(p.headers, { exerciseId: ids[i], answer, seq: 1 })).status).toBe(200);

    const res = await inject(t, { method: 'POST', url: `/api/answer/auto/${chapterId}`, headers: admin.headers });
    expect(res.status).toBe(200);
    const grades = await Promise.all(ids.map(async (id) => (await stored(p.id, id))[0].grade));
    expect(grades).toEqual(['1', '1', '1', '1', '0', '1']);
  });
});
