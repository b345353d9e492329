import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, auditLog, chapters, commentBank, exercises, gradingAssignments } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/** Decision 160 (docs/product.md#returned-copies): the exercise's comment bank, its uses, and the statistics' count of them. */

let t: TestApp;
let admin: { id: string; headers: Headers };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await createUser(t, 'admin');
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: object) =>
  inject(t, { method, url, headers, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });

async function exercise() {
  const [c] = await db().insert(chapters).values({ title: 'Coupe' }).returning();
  const [ex] = await db()
    .insert(exercises)
    .values({ chapterId: c.id, position: 0, title: 'Preuve', answerFormat: 'pdf', maxPoints: 10 })
    .returning();
  return { chapterId: c.id, exerciseId: ex.id };
}

/** A pupil's copy of the exercise graded by `headers` with the bank remarks `applied`. */
async function gradedWith(headers: Headers, exerciseId: string, applied: string[]) {
  const p = await createUser(t, 'pupil');
  const [a] = await db()
    .insert(answers)
    .values({ userId: p.id, exerciseId, answer: 'pdfs/00000000-0000-4000-8000-000000000001.pdf', seq: 1 })
    .returning();
  const res = await call('POST', '/api/answer/grade', headers, {
    answerId: a.id,
    grade: '5',
    grade_comment: '',
    hidden: false,
    expectedGradeTimestamp: null,
    bankComments: applied,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('the comment bank', () => {
  it('lets the exercise’s correctors read and add, admins reword, reorder and retire, with the uses counted and audited', async () => {
    const { chapterId, exerciseId } = await exercise();
    const corrector = await createUser(t, 'member');
    const url = `/api/exos/${exerciseId}/comments`;
    expect((await call('GET', url, corrector.headers)).body).toEqual([]);
    const added = await call('POST', url, corrector.headers, { text: '  Justifiez le passage à la limite.  ' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ text: 'Justifiez le passage à la limite.', position: 0, uses: 0 });
    const second = (await call('POST', url, admin.headers, { text: 'Figure absente.' })).body;
    const third = (await call('POST', url, admin.headers, { text: 'Cas d’égalité oublié.' })).body;
    expect(second.position).toBe(1);

    await gradedWith(corrector.headers, exerciseId, [third._id]);
    await gradedWith(corrector.headers, exerciseId, [third._id, added.body._id]);
    const listed = (await call('GET', url, corrector.headers)).body;
    expect(listed.map((c: { text: string; uses: number }) => [c.text, c.uses])).toEqual([
      ['Justifiez le passage à la limite.', 1],
      ['Figure absente.', 0],
      ['Cas d’égalité oublié.', 2],
    ]);

    // Admins reword and move; the others are renumbered.
    const moved = await call('PATCH', `${url}/${third._id}`, admin.headers, { text: 'Cas d’égalité non traité.', position: 0 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ text: 'Cas d’égalité non traité.', position: 0, uses: 2 });
    expect((await call('GET', url, corrector.headers)).body.map((c: { position: number; _id: string }) => [c._id, c.position])).toEqual([
      [third._id, 0],
      [added.body._id, 1],
      [second._id, 2],
    ]);
    expect((await call('PATCH', `${url}/${third._id}`, corrector.headers, { position: 1 })).status).toBe(403);
    expect((await call('DELETE', `${url}/${second._id}`, corrector.headers)).status).toBe(403);
    const retired = await call('DELETE', `${url}/${added.body._id}`, admin.headers);
    expect(retired.status).toBe(200);
    expect(retired.body.message).toBe('Remarque retirée de la banque.');
    expect((await call('GET', url, corrector.headers)).body.map((c: { _id: string }) => c._id)).toEqual([third._id, second._id]);
    expect((await call('DELETE', `${url}/${added.body._id}`, admin.headers)).status).toBe(404);
    expect((await call('PATCH', `${url}/${randomUUID()}`, admin.headers, { text: 'x' })).status).toBe(404);
    const [row] = await db().select().from(commentBank).where(eq(commentBank.id, added.body._id));
    expect(row.archivedAt).not.toBeNull();

    const actions = (await db().select().from(auditLog)).filter((a) => (a.details as { exerciseId?: string }).exerciseId === exerciseId);
    expect(actions.map((a) => a.action).sort()).toEqual([
      'comment_bank.add',
      'comment_bank.add',
      'comment_bank.add',
      'comment_bank.archive',
      'comment_bank.edit',
    ]);

    // The statistics: most used first, a retired remark still counted while some grading applied it.
    const stats = await call('GET', `/api/stats/${chapterId}`, corrector.headers);
    expect(stats.status).toBe(200);
    expect(stats.body.exercises[0].bankComments).toEqual([
      { _id: third._id, text: 'Cas d’égalité non traité.', uses: 2, archived: false },
      { _id: added.body._id, text: 'Justifiez le passage à la limite.', uses: 1, archived: true },
      { _id: second._id, text: 'Figure absente.', uses: 0, archived: false },
    ]);
  });

  it('keeps out correctors of other exercises and refuses bad input in French', async () => {
    const { exerciseId } = await exercise();
    const assigned = await createUser(t, 'member');
    const other = await createUser(t, 'member');
    await db().insert(gradingAssignments).values({ exerciseId, userId: assigned.id });
    const url = `/api/exos/${exerciseId}/comments`;
    expect((await call('GET', url, assigned.headers)).status).toBe(200);
    const refused = await call('GET', url, other.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Cet exercice est attribué à d’autres correcteurs.');
    expect((await call('POST', url, other.headers, { text: 'Non.' })).status).toBe(403);
    const empty = await call('POST', url, assigned.headers, { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Écrivez la remarque.');
    const long = await call('POST', url, assigned.headers, { text: 'a'.repeat(501) });
    expect(long.status).toBe(400);
    const nothing = await call('PATCH', `${url}/${randomUUID()}`, admin.headers, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toContain('Rien à modifier');
    expect((await call('GET', `/api/exos/${randomUUID()}/comments`, admin.headers)).status).toBe(404);
  });
});
