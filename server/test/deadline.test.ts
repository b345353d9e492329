import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, chapters, exercises, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * The qualities of docs/product.md#design-4, clocks: the server alone decides the deadline. A save 1 s before it is kept
 * (and is the current answer), one 6 s after it is refused with the French message and changes
 * nothing, whatever the client's clock says (the client sends no time; seq is only an order).
 * answers.test.ts covers the 5 s grace at +2 s / +8 s; this pins the figures, for the
 * personal deadline (start + duration) and for the window end.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const DURATION_MIN = 10;
type Headers = Record<string, string>;

async function setup(rule: Partial<typeof accessGroups.$inferInsert>) {
  const db = t.database.db;
  const [chapter] = await db.insert(chapters).values({ title: 'Échéance' }).returning();
  await db.insert(accessGroups).values({ chapterId: chapter.id, position: 0, ...rule });
  const [exercise] = await db
    .insert(exercises)
    .values({ chapterId: chapter.id, position: 0, title: 'Somme', answerFormat: 'numeric' })
    .returning();
  await db.insert(statementVersions).values({ exerciseId: exercise.id, position: 0, content: 'Combien ?', answer: '12' });
  const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
  return { chapterId: chapter.id, exerciseId: exercise.id, pupil };
}

const save = (headers: Headers, exerciseId: string, answer: string, seq: number) =>
  inject(t, { method: 'POST', url: '/api/answer', headers, payload: { exerciseId, answer, seq } });
const state = (chapterId: string, headers: Headers) => inject(t, { method: 'GET', url: `/api/chapter/start/${chapterId}`, headers });
const mine = (chapterId: string, headers: Headers) => inject(t, { method: 'GET', url: `/api/answer/chapter/${chapterId}`, headers });

/** Moves the pupil's start so that the personal deadline (start + duration) is `offsetMs` from now. */
const deadlineIn = (chapterId: string, userId: string, offsetMs: number) =>
  t.database.db.execute(
    sql`UPDATE chapter_sessions SET started_at = ${new Date(Date.now() + offsetMs - DURATION_MIN * 60_000).toISOString()}::timestamptz
        WHERE chapter_id = ${chapterId} AND user_id = ${userId}`,
  );

describe('the deadline: 1 s before is kept, 6 s after is refused', () => {
  it('applies to the personal deadline of a timed chapter (start + duration)', async () => {
    const { chapterId, exerciseId, pupil } = await setup({ timeDuration: DURATION_MIN });
    expect((await inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers: pupil.headers })).status).toBe(200);

    await deadlineIn(chapterId, pupil.id, 1_000);
    const kept = await save(pupil.headers, exerciseId, '11', 1);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ current: true, duplicate: false });

    await deadlineIn(chapterId, pupil.id, -6_000);
    expect((await state(chapterId, pupil.headers)).body).toMatchObject({ status: 'after', remainingTime: 0 });
    // A higher seq (the client's clock running ahead) does not help.
    const refused = await save(pupil.headers, exerciseId, '12', Date.now() + 3_600_000);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('L’épreuve est terminée.');

    expect((await mine(chapterId, pupil.headers)).body).toMatchObject([{ exercise: exerciseId, answer: '11', seq: 1 }]);
    const rows = await t.database.db
      .select()
      .from(answers)
      .where(and(eq(answers.userId, pupil.id), eq(answers.exerciseId, exerciseId)));
    expect(rows.map((r) => r.answer)).toEqual(['11']);
  });

  it('keeps a save in flight at the deadline (4 s after, within the 5 s grace)', async () => {
    const { chapterId, exerciseId, pupil } = await setup({ timeDuration: DURATION_MIN });
    await inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers: pupil.headers });
    await deadlineIn(chapterId, pupil.id, -4_000);
    expect((await save(pupil.headers, exerciseId, '7', 7)).status).toBe(200);
    expect((await mine(chapterId, pupil.headers)).body).toMatchObject([{ answer: '7', seq: 7 }]);
  });

  it('applies to the window end of an untimed chapter', async () => {
    const { chapterId, exerciseId, pupil } = await setup({ accessStart: new Date(Date.now() - 3_600_000) });
    const windowEndIn = (offsetMs: number) =>
      t.database.db.execute(
        sql`UPDATE access_groups SET access_end = ${new Date(Date.now() + offsetMs).toISOString()}::timestamptz WHERE chapter_id = ${chapterId}`,
      );

    await windowEndIn(1_000);
    expect((await save(pupil.headers, exerciseId, '21', 21)).status).toBe(200);

    await windowEndIn(-6_000);
    const refused = await save(pupil.headers, exerciseId, '22', 22);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('L’épreuve est terminée.');
    expect((await mine(chapterId, pupil.headers)).body).toMatchObject([{ answer: '21', seq: 21 }]);
  });
});
