import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_POINTS_MAX, ANNOTATIONS_MAX, INK_POINTS_MAX, type Annotation } from '@olympe/contract';
import { answers, chapters, commentBank, exercises, gradeAudit, gradings } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * Decisions 159 and 160 (docs/product.md#returned-copies): a corrector's marks saved with the grade, read back as their own
 * layer, checked against the exercise's scheme and bank, and never shown to the other corrector before the copy is settled.
 */

let t: TestApp;
let admin: { id: string; headers: Headers };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Admin' });
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;
const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
const post = (url: string, headers: Headers, payload: unknown) =>
  inject(t, { method: 'POST', url, headers, payload: payload as Record<string, unknown> });

const ITEM = randomUUID();

/** A PDF exercise worth 10 with one scheme item and one bank remark, and one pupil's copy of it. */
async function copyIn(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Finale', ...fields })
    .returning();
  const [ex] = await db()
    .insert(exercises)
    .values({
      chapterId: c.id,
      position: 0,
      title: 'Preuve',
      answerFormat: 'pdf',
      maxPoints: 10,
      schemeItems: [{ id: ITEM, text: 'Récurrence', points: 2 }],
    })
    .returning();
  const [remark] = await db().insert(commentBank).values({ exerciseId: ex.id, position: 0, text: 'Justifiez.' }).returning();
  const p = await createUser(t, 'pupil', { lastName: 'Noether' });
  const [a] = await db()
    .insert(answers)
    .values({ userId: p.id, exerciseId: ex.id, answer: 'pdfs/00000000-0000-4000-8000-000000000001.pdf', seq: 1 })
    .returning();
  return { chapterId: c.id, exerciseId: ex.id, pupilId: p.id, answerId: a.id, remarkId: remark.id };
}

const tick = (id: string, page = 0): Annotation => ({ id, page, kind: 'tick', x: 0.5, y: 0.25 });
const note = (id: string, text: string): Annotation => ({ id, page: 1, kind: 'note', x: 0.1, y: 0.9, text });

async function deskOf(headers: Headers, pupilId: string, exerciseId: string) {
  const res = await get(`/api/answer/history/${pupilId}/${exerciseId}`, headers);
  expect(res.status).toBe(200);
  return res.body;
}

/** Saves from the version the caller reads, with `extra` (marks) beside the grade. */
async function save(headers: Headers, copy: { pupilId: string; exerciseId: string }, grade: string | null, extra: object = {}) {
  const desk = await deskOf(headers, copy.pupilId, copy.exerciseId);
  return post('/api/answer/grade', headers, {
    answerId: desk.result.answerId,
    grade,
    grade_comment: '',
    hidden: false,
    expectedGradeTimestamp: desk.result.grade_timestamp ?? null,
    ...extra,
  });
}

describe('saving and reading marks (single correction)', () => {
  it('writes the marks with the grade, keeps them when omitted, clears them with [], and reads them back', async () => {
    const copy = await copyIn();
    const corrector = await createUser(t, 'member');
    const marks = [tick('t1'), { id: 'i1', page: 0, kind: 'item', x: 0.2, y: 0.3, itemId: ITEM }, note('n1', 'Très bien vu')];
    const first = await save(corrector.headers, copy, '6', { annotations: marks, bankComments: [copy.remarkId] });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const [row] = await db().select().from(gradings).where(eq(gradings.answerId, copy.answerId));
    expect(row).toMatchObject({ grade: '6', bankComments: [copy.remarkId] });
    expect((row.annotations as Annotation[]).map((a) => a.id)).toEqual(['t1', 'i1', 'n1']);
    const desk = await deskOf(corrector.headers, copy.pupilId, copy.exerciseId);
    expect(desk.result).toMatchObject({ grade: '6', bankComments: [copy.remarkId] });
    expect(desk.result.annotations).toEqual([{ ...tick('t1') }, marks[1], marks[2]]);
    expect(desk.result.layers).toBeUndefined();

    // Omitted: unchanged (the grade moves, the marks stay).
    expect((await save(corrector.headers, copy, '7')).status).toBe(200);
    expect((await deskOf(corrector.headers, copy.pupilId, copy.exerciseId)).result.annotations).toHaveLength(3);
    // Only the marks change: a new version (the conflict check covers them), no line in the grade history.
    const audits = (await db().select().from(gradeAudit).where(eq(gradeAudit.answerId, copy.answerId))).length;
    const before = (await deskOf(corrector.headers, copy.pupilId, copy.exerciseId)).result.grade_timestamp;
    expect((await save(corrector.headers, copy, '7', { annotations: [tick('t2')] })).status).toBe(200);
    const after = await deskOf(corrector.headers, copy.pupilId, copy.exerciseId);
    expect(after.result.annotations).toEqual([tick('t2')]);
    expect(after.result.grade_timestamp).not.toBe(before);
    expect(await db().select().from(gradeAudit).where(eq(gradeAudit.answerId, copy.answerId))).toHaveLength(audits);
    // A save from the older version is refused, and the 409 shows the marks now stored.
    const stale = await post('/api/answer/grade', corrector.headers, {
      answerId: copy.answerId,
      grade: '7',
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: before,
      annotations: [],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current.annotations).toEqual([tick('t2')]);
    // [] clears.
    expect((await save(corrector.headers, copy, '7', { annotations: [], bankComments: [] })).status).toBe(200);
    expect((await deskOf(corrector.headers, copy.pupilId, copy.exerciseId)).result).toMatchObject({ annotations: [], bankComments: [] });
  });

  it('refuses an item outside the scheme, a remark outside the bank and repeated ids, in French, writing nothing', async () => {
    const copy = await copyIn();
    const other = await copyIn();
    const corrector = await createUser(t, 'member');
    const cases: Array<[object, string]> = [
      [{ annotations: [{ id: 'x', page: 0, kind: 'item', x: 0, y: 0, itemId: randomUUID() }] }, 'élément de barème inconnu'],
      [{ annotations: [{ id: 'x', page: 0, kind: 'bank', x: 0, y: 0, bankId: other.remarkId, text: 'Justifiez.' }] }, 'Remarque inconnue'],
      [{ annotations: [{ id: 'x', page: 0, kind: 'bank', x: 0, y: 0, bankId: 'pas-un-uuid', text: '' }] }, 'Remarque inconnue'],
      [{ bankComments: [other.remarkId] }, 'Remarque inconnue'],
      [{ annotations: [tick('a'), tick('a', 1)] }, 'même identifiant'],
    ];
    for (const [extra, message] of cases) {
      const res = await save(corrector.headers, copy, '5', extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const outside = await save(corrector.headers, copy, '5', { annotations: [{ ...tick('o'), x: 1.5 }] });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toContain('Position hors de la page.');
    expect(await db().select().from(gradings).where(eq(gradings.answerId, copy.answerId))).toHaveLength(0);
    expect(
      (
        await save(corrector.headers, copy, '5', {
          annotations: [{ ...tick('b'), kind: 'bank', bankId: copy.remarkId, text: 'Justifiez.' }],
        })
      ).status,
    ).toBe(200);
  });

  it(
    'takes 400 annotations and 20,000 ink points in one save; more points, or a body past 1 MiB, are refused',
    { timeout: 60_000 },
    async () => {
      const copy = await copyIn();
      const corrector = await createUser(t, 'member');
      const points = Array.from({ length: 50 }, (_, i) => [Number((i / 50).toFixed(4)), 0.1234]);
      const ink = Array.from({ length: ANNOTATIONS_MAX }, (_, i) => ({ id: `ink${i}`, page: i % 4, kind: 'ink', points, color: 'red' }));
      const res = await save(corrector.headers, copy, '3', { annotations: ink });
      expect(res.status, String(res.body?.message)).toBe(200);
      expect((await deskOf(corrector.headers, copy.pupilId, copy.exerciseId)).result.annotations).toHaveLength(ANNOTATIONS_MAX);
      const ticks = Array.from({ length: ANNOTATIONS_MAX + 1 }, (_, i) => tick(`k${i}`));
      const tooMany = await save(corrector.headers, copy, '3', { annotations: ticks });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.message).toContain('Au plus 400 annotations par copie.');
      // 20,001 points: refused with the French message, whatever the number of strokes.
      const long = Array.from({ length: INK_POINTS_MAX }, (_, i) => [Number((i / INK_POINTS_MAX).toFixed(4)), 0.5678]);
      const strokes = Array.from({ length: ANNOTATION_POINTS_MAX / INK_POINTS_MAX }, (_, i) => ({
        id: `s${i}`,
        page: 0,
        kind: 'ink',
        points: long,
      }));
      const over = await save(corrector.headers, copy, '3', {
        annotations: [...strokes, { id: 'one', page: 0, kind: 'ink', points: [[0.5, 0.5]] }],
      });
      expect(over.status).toBe(400);
      expect(over.body.message).toContain('20\u202f000 points au plus');
      // The worst accepted body is far under 1 MiB; a body past it is 413, before any parsing.
      expect(JSON.stringify(strokes).length).toBeLessThan(512 * 1024);
      const huge = await save(corrector.headers, copy, '3', { annotations: 'x'.repeat(1024 * 1024 + 1) });
      expect(huge.status).toBe(413);
    },
  );
});

describe('the blind rule of double correction (decision 63)', () => {
  it('never gives a corrector the other’s layer before settlement, by any route; the arbiter gets both; after, each sees both', async () => {
    const copy = await copyIn({ doubleGrading: true, gradingTolerance: 1, anonymousGrading: false });
    const a = await createUser(t, 'member', { firstName: 'Anne', lastName: 'Première' });
    const b = await createUser(t, 'member', { firstName: 'Bruno', lastName: 'Second' });
    const SECRET_A = 'secret-de-la-premiere';
    const SECRET_B = 'secret-du-second';
    // Everything a corrector receives from every grading route that returns a copy.
    const seenBy = async (headers: Headers) => {
      const bodies = [
        (await get(`/api/answer/history/${copy.pupilId}/${copy.exerciseId}`, headers)).body,
        (await get(`/api/answer/overview/${copy.chapterId}`, headers)).body,
        (await get(`/api/answer/overview/${copy.chapterId}?limit=50`, headers)).body,
        (await get(`/api/answer/table/${copy.chapterId}`, headers)).body,
      ];
      return JSON.stringify(bodies);
    };
    const savedA = await save(a.headers, copy, '2', { annotations: [note('a1', SECRET_A)] });
    expect(savedA.status).toBe(200);
    expect(JSON.stringify(savedA.body)).not.toContain(SECRET_B);
    expect(await seenBy(b.headers)).not.toContain(SECRET_A);
    const savedB = await save(b.headers, copy, '8', { annotations: [note('b1', SECRET_B)] });
    expect(savedB.status).toBe(200);
    expect(savedB.body.status).toBe('arbitration');
    expect(JSON.stringify(savedB.body)).not.toContain(SECRET_A);
    // Both in, too far apart: grades are shown to both (decision 63), the layers are not, the copy being unsettled.
    expect(await seenBy(a.headers)).not.toContain(SECRET_B);
    expect(await seenBy(b.headers)).not.toContain(SECRET_A);
    const deskA = await deskOf(a.headers, copy.pupilId, copy.exerciseId);
    expect(deskA.result.annotations).toEqual([note('a1', SECRET_A)]);
    expect(deskA.result.layers).toBeUndefined();
    // A stale save's 409 carries the caller's own layer only.
    const stale = await post('/api/answer/grade', a.headers, {
      answerId: copy.answerId,
      grade: '3',
      grade_comment: '',
      hidden: false,
      expectedGradeTimestamp: null,
    });
    expect(stale.status).toBe(409);
    expect(JSON.stringify(stale.body)).toContain(SECRET_A);
    expect(JSON.stringify(stale.body)).not.toContain(SECRET_B);

    // The arbiter reads both correctors' layers, labelled, and writes the arbitration's own.
    const arbiter = await deskOf(admin.headers, copy.pupilId, copy.exerciseId);
    expect(arbiter.desk.role).toBe('arbiter');
    expect(arbiter.result.annotations).toEqual([]);
    expect(arbiter.result.layers).toEqual([
      {
        label: 'Correcteur 1',
        grader: { _id: a.id, firstName: 'Anne', lastName: 'Première' },
        arbitration: false,
        annotations: [note('a1', SECRET_A)],
      },
      {
        label: 'Correcteur 2',
        grader: { _id: b.id, firstName: 'Bruno', lastName: 'Second' },
        arbitration: false,
        annotations: [note('b1', SECRET_B)],
      },
    ]);
    expect(JSON.stringify(await get(`/api/answer/arbitration/${copy.chapterId}`, admin.headers))).not.toContain(SECRET_A);
    expect((await save(admin.headers, copy, '5', { annotations: [tick('arb')] })).body.status).toBe('arbitrated');
    const arbitration = (await db().select().from(gradings).where(eq(gradings.answerId, copy.answerId))).find((g) => g.arbitration)!;
    expect(arbitration.annotations).toEqual([tick('arb')]);

    // Settled: each corrector may read both layers (and the arbitration's).
    const settled = await deskOf(a.headers, copy.pupilId, copy.exerciseId);
    expect(settled.result.annotations).toEqual([note('a1', SECRET_A)]);
    expect(settled.result.layers.map((l: { label: string }) => l.label)).toEqual(['Correcteur 1', 'Correcteur 2', 'Arbitrage']);
    expect(JSON.stringify(settled.result.layers)).toContain(SECRET_B);
  });

  it('names nobody in the layers under anonymous correction; a third corrector gets no layer', async () => {
    const copy = await copyIn({ doubleGrading: true, gradingTolerance: 10, anonymousGrading: true });
    const a = await createUser(t, 'member');
    const b = await createUser(t, 'member');
    const c = await createUser(t, 'member');
    const copyId = (await get(`/api/answer/table/${copy.chapterId}`, a.headers)).body;
    const key = Object.keys(copyId.users)[0];
    const anon = { pupilId: key, exerciseId: copy.exerciseId };
    expect((await save(a.headers, anon, '4', { annotations: [tick('a')] })).status).toBe(200);
    expect((await save(b.headers, anon, '5', { annotations: [tick('b')] })).body.status).toBe('settled');
    const layers = (await deskOf(a.headers, key, copy.exerciseId)).result.layers;
    expect(layers.map((l: { label: string; grader: unknown }) => [l.label, l.grader])).toEqual([
      ['Correcteur 1', null],
      ['Correcteur 2', null],
    ]);
    const third = await deskOf(c.headers, key, copy.exerciseId);
    expect(third.desk.role).toBe('done');
    expect(third.result.annotations).toBeUndefined();
    expect(third.result.layers).toBeUndefined();
  });
});

describe('nothing graded is lost', () => {
  it('keeps the marks when the pages-added notice is dismissed and when the scheme changes', async () => {
    const copy = await copyIn();
    const corrector = await createUser(t, 'member');
    expect((await save(corrector.headers, copy, null, { items: [ITEM], annotations: [tick('k')] })).status).toBe(200);
    await db().update(answers).set({ pagesAddedAt: new Date() }).where(eq(answers.id, copy.answerId));
    expect(
      (await inject(t, { method: 'DELETE', url: `/api/answer/pages-added/${copy.answerId}`, headers: corrector.headers })).status,
    ).toBe(200);
    const scheme = [{ id: ITEM, text: 'Récurrence', points: 3 }];
    const patch = await inject(t, {
      method: 'PATCH',
      url: `/api/exos/${copy.exerciseId}`,
      headers: admin.headers,
      payload: { schemeItems: scheme, confirmRecompute: 1 },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    const desk = await deskOf(corrector.headers, copy.pupilId, copy.exerciseId);
    expect(desk.result).toMatchObject({ grade: '3', annotations: [tick('k')] });
  });
});
