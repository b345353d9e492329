import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, auditLog, chapters, exercises, gradeAudit, mailDeliveries } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/** Decision 161 (docs/product.md#returned-copies): a scheme change previewed, confirmed, and recomputing the grades that ticked it. */

let t: TestApp;
let admin: Headers;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;
const call = (method: 'POST' | 'PATCH', url: string, headers: Headers, payload: object) =>
  inject(t, { method, url, headers, payload: payload as Record<string, unknown> });

const A = randomUUID();
const B = randomUUID();
const scheme = (aPoints: number) => [
  { id: A, text: 'Initialisation', points: aPoints },
  { id: B, text: 'Hérédité', points: 3 },
];

async function exercise(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Tour 2', ...fields })
    .returning();
  const [ex] = await db()
    .insert(exercises)
    .values({ chapterId: c.id, position: 0, title: 'Récurrence', answerFormat: 'pdf', maxPoints: 10, schemeItems: scheme(2) })
    .returning();
  return ex.id;
}

/** A pupil's copy graded by `headers`: the ticked items and, when given, a grade typed apart from them. */
async function graded(headers: Headers, exerciseId: string, items: string[], grade: string | null = null, pupilId?: string) {
  const userId = pupilId ?? (await createUser(t, 'pupil')).id;
  let [a] = await db().select().from(answers).where(eq(answers.userId, userId));
  if (!a) {
    [a] = await db()
      .insert(answers)
      .values({ userId, exerciseId, answer: 'pdfs/00000000-0000-4000-8000-000000000001.pdf', seq: 1 })
      .returning();
  }
  const desk = (await inject(t, { method: 'GET', url: `/api/answer/history/${userId}/${exerciseId}`, headers })).body;
  const res = await call('POST', '/api/answer/grade', headers, {
    answerId: a.id,
    grade,
    grade_comment: '',
    hidden: false,
    expectedGradeTimestamp: desk.result.grade_timestamp ?? null,
    items,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { answerId: a.id, userId };
}

const gradeOf = async (answerId: string) => (await db().select().from(answers).where(eq(answers.id, answerId)))[0].grade;

describe('a scheme change (decision 161)', () => {
  it('previews 3 changes of −0,5, asks for the number, then recomputes them, leaving a typed grade untouched', async () => {
    const exerciseId = await exercise({ analysis: true });
    const corrector = (await createUser(t, 'member')).headers;
    const copies = [
      await graded(corrector, exerciseId, [A]),
      await graded(corrector, exerciseId, [A]),
      await graded(corrector, exerciseId, [A, B]),
    ];
    const typed = await graded(corrector, exerciseId, [A], '4');
    const untouched = await graded(corrector, exerciseId, [B]);
    expect(await Promise.all(copies.map((c) => gradeOf(c.answerId)))).toEqual(['2', '2', '5']);

    const preview = await call('POST', `/api/exos/${exerciseId}/scheme/preview`, admin, { schemeItems: scheme(1.5) });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({ changed: 3, minDelta: -0.5, maxDelta: -0.5, publishedPupils: 3 });
    // The preview writes nothing.
    expect(await gradeOf(copies[0].answerId)).toBe('2');

    const refused = await call('PATCH', `/api/exos/${exerciseId}`, admin, { schemeItems: scheme(1.5) });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'scheme_recompute',
      message: '3 notes changent, de −0,5 à −0,5\u00a0: confirmez ce nombre («\u00a0confirmRecompute\u00a0») pour recalculer ces notes.',
      preview: { changed: 3 },
    });
    expect((await call('PATCH', `/api/exos/${exerciseId}`, admin, { schemeItems: scheme(1.5), confirmRecompute: 2 })).status).toBe(409);
    const [before] = await db().select().from(exercises).where(eq(exercises.id, exerciseId));
    expect(before.schemeItems[0].points).toBe(2);

    const before3 = await db()
      .select()
      .from(gradeAudit)
      .where(
        inArray(
          gradeAudit.answerId,
          [...copies, typed].map((c) => c.answerId),
        ),
      );
    const applied = await call('PATCH', `/api/exos/${exerciseId}`, admin, { schemeItems: scheme(1.5), confirmRecompute: 3 });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(await Promise.all(copies.map((c) => gradeOf(c.answerId)))).toEqual(['1.5', '1.5', '4.5']);
    expect(await gradeOf(typed.answerId)).toBe('4');
    expect(await gradeOf(untouched.answerId)).toBe('3');
    const history = await db()
      .select()
      .from(gradeAudit)
      .where(
        inArray(
          gradeAudit.answerId,
          [...copies, typed].map((c) => c.answerId),
        ),
      );
    const added = history.filter((h) => !before3.some((b) => b.id === h.id));
    expect(added.map((h) => [h.oldGrade, h.newGrade, h.kind]).sort()).toEqual([
      ['2', '1.5', 'grade'],
      ['2', '1.5', 'grade'],
      ['5', '4.5', 'grade'],
    ]);
    const [logged] = await db().select().from(auditLog).where(eq(auditLog.action, 'exercise.scheme_recompute'));
    expect(logged.details).toMatchObject({ changed: 3, kept: 1, minDelta: -0.5 });
    // Published chapter: the three pupils are told.
    const mails = await db().select().from(mailDeliveries).where(eq(mailDeliveries.kind, 'grade-change'));
    expect(mails.map((m) => m.userId).sort()).toEqual(copies.map((c) => c.userId).sort());

    // Back to the same points: nothing to confirm, nothing moves.
    expect((await call('PATCH', `/api/exos/${exerciseId}`, admin, { schemeItems: scheme(1.5), title: 'Récurrence forte' })).status).toBe(
      200,
    );
  });

  it('settles a double-marked copy again from both recomputed gradings, and mails nobody before publication', async () => {
    const exerciseId = await exercise({ doubleGrading: true, gradingTolerance: 1 });
    const first = (await createUser(t, 'member')).headers;
    const second = (await createUser(t, 'member')).headers;
    const copy = await graded(first, exerciseId, [A]);
    await graded(second, exerciseId, [A, B], null, copy.userId);
    // 2 and 5: too far apart, awaiting arbitration; 1.5 and 4.5 still are.
    expect(await gradeOf(copy.answerId)).toBeNull();
    const close = await graded(first, exerciseId, [A, B]);
    await graded(second, exerciseId, [A, B], '5.5', close.userId);
    expect(await gradeOf(close.answerId)).toBe('5.25');
    const preview = await call('POST', `/api/exos/${exerciseId}/scheme/preview`, admin, { schemeItems: scheme(1.5) });
    expect(preview.body).toEqual({ changed: 3, minDelta: -0.5, maxDelta: -0.5, publishedPupils: 0 });
    expect((await call('PATCH', `/api/exos/${exerciseId}`, admin, { schemeItems: scheme(1.5), confirmRecompute: 3 })).status).toBe(200);
    expect(await gradeOf(close.answerId)).toBe('5');
    expect(await gradeOf(copy.answerId)).toBeNull();
    const lines = await db().select().from(gradeAudit).where(eq(gradeAudit.answerId, close.answerId));
    expect(lines.slice(-2).map((l) => [l.kind, l.oldGrade, l.newGrade])).toEqual([
      ['grading', '5', '4.5'],
      ['grade', '5.25', '5'],
    ]);
    const mails = await db().select().from(mailDeliveries).where(eq(mailDeliveries.userId, close.userId));
    expect(mails).toHaveLength(0);
  });

  it('refuses a scheme above the maximum in the preview as PATCH does', async () => {
    const exerciseId = await exercise();
    const res = await call('POST', `/api/exos/${exerciseId}/scheme/preview`, admin, { schemeItems: [{ text: 'Tout', points: 11 }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('plus que les 10 points');
  });
});
