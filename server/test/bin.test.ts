import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, auditLog, chapters, exercises, files, gradeAudit, unlabeledAnswers } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import { purgeBin } from '../src/ops/purge.js';
import { insertChapter } from './fixtures/chapter.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
});
afterAll(async () => t.close());

const db = () => t.database.db;
const store = () => openFileStore({ config: t.config, db: db() });
const DAY = 86_400_000;

/** A published chapter open to all, with a numeric exercise (answered and graded by one pupil) and a PDF one. */
async function gradedChapter(title = 'Tour 1') {
  const {
    chapterId,
    exerciseIds: [numeric, pdf],
  } = await insertChapter(db(), {
    fields: { title },
    openToAll: true,
    exercises: [
      { title: 'Somme', answerFormat: 'numeric', maxPoints: 4, versions: [{ content: 'Combien ?', answer: '12' }] },
      { title: 'Preuve', answerFormat: 'pdf', maxPoints: 7 },
    ],
  });
  const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
  const [a] = await db()
    .insert(answers)
    .values({ userId: pupil.id, exerciseId: numeric, answer: '12', seq: 1, grade: '4', gradeComment: 'Juste', gradeTimestamp: new Date() })
    .returning();
  await db().insert(gradeAudit).values({ answerId: a.id, newGrade: '4' });
  return { chapterId, numeric, pdf, pupil, answerId: a.id };
}

const auditOf = async (targetId: string) =>
  (await db().select().from(auditLog).where(eq(auditLog.targetId, targetId)).orderBy(auditLog.id)).map((r) => r.action);

describe('DELETE then POST /chapter/{id}/restore', () => {
  it('hides a deleted chapter everywhere, then brings it back with its answers and grades', async () => {
    const c = await gradedChapter();
    const del = await inject(t, { method: 'DELETE', url: `/api/chapter/${c.chapterId}`, headers: admin });
    expect(del).toMatchObject({ status: 200, body: { message: 'Chapitre placé dans la corbeille' } });

    // Hidden from the lists, the pupil's pages, grading, exports and analysis.
    const adminList = await inject(t, { method: 'GET', url: '/api/chapter', headers: admin });
    expect(adminList.body.map((x: { _id: string }) => x._id)).not.toContain(c.chapterId);
    const pupilList = await inject(t, { method: 'GET', url: '/api/chapter', headers: c.pupil.headers });
    expect(pupilList.body.map((x: { _id: string }) => x._id)).not.toContain(c.chapterId);
    for (const url of [
      `/api/chapter/${c.chapterId}`,
      `/api/exos/chapter/${c.chapterId}`,
      `/api/exos/raw/${c.chapterId}`,
      `/api/exos/latex/${c.chapterId}`,
      `/api/exos/${c.numeric}`,
      `/api/answer/table/${c.chapterId}`,
      `/api/answer/overview/${c.chapterId}`,
      `/api/answer/analysis/${c.chapterId}`,
      `/api/answer/select/${c.numeric}`,
      `/api/answer/history/${c.pupil.id}/${c.numeric}`,
    ]) {
      const res = await inject(t, { method: 'GET', url, headers: admin });
      expect(res.status, url).toBe(404);
    }
    expect((await inject(t, { method: 'GET', url: `/api/answer/chapter/${c.chapterId}`, headers: c.pupil.headers })).status).toBe(404);
    // A grade sent to a copy of a binned chapter is refused: nothing changes.
    const grade = await inject(t, {
      method: 'POST',
      url: '/api/answer/grade',
      headers: admin,
      payload: { answerId: c.answerId, grade: '1', grade_comment: '', expectedGradeTimestamp: null },
    });
    expect(grade.status).toBe(404);

    const bin = await inject(t, { method: 'GET', url: '/api/bin', headers: admin });
    expect(bin.status).toBe(200);
    const entry = bin.body.find((e: { _id: string }) => e._id === c.chapterId);
    expect(entry).toMatchObject({ kind: 'chapter', title: 'Tour 1', answers: 1, chapterDeleted: true });
    expect(new Date(entry.purgeAfter).getTime() - new Date(entry.deletedAt).getTime()).toBe(30 * DAY);

    const restore = await inject(t, { method: 'POST', url: `/api/chapter/${c.chapterId}/restore`, headers: admin });
    expect(restore).toMatchObject({ status: 200, body: { message: 'Chapitre restauré' } });
    const mine = await inject(t, { method: 'GET', url: `/api/answer/chapter/${c.chapterId}`, headers: c.pupil.headers });
    expect(mine.body).toMatchObject([{ exercise: c.numeric, answer: '12', grade: '4', grade_comment: 'Juste' }]);
    expect((await inject(t, { method: 'GET', url: `/api/answer/table/${c.chapterId}`, headers: admin })).status).toBe(200);
    expect((await inject(t, { method: 'GET', url: '/api/bin', headers: admin })).body.map((e: { _id: string }) => e._id)).not.toContain(
      c.chapterId,
    );
    expect(await auditOf(c.chapterId)).toEqual(['chapter.delete', 'chapter.restore']);

    // Restoring what is not in the bin, or deleting twice: 404 with a French message.
    const again = await inject(t, { method: 'POST', url: `/api/chapter/${c.chapterId}/restore`, headers: admin });
    expect(again).toMatchObject({ status: 404, body: { message: 'Ce chapitre n’est pas dans la corbeille.' } });
  });
});

describe('DELETE then POST /exos/{id}/restore', () => {
  it('hides a deleted exercise from its chapter and grading, and restores it in place', async () => {
    const c = await gradedChapter('Tour 2');
    expect((await inject(t, { method: 'DELETE', url: `/api/exos/${c.numeric}`, headers: admin })).body).toEqual({
      message: 'Exercice placé dans la corbeille',
    });
    const page = await inject(t, { method: 'GET', url: `/api/exos/chapter/${c.chapterId}`, headers: admin });
    expect(page.body.exercises.map((e: { _id: string }) => e._id)).toEqual([c.pdf]);
    expect(page.body.maxTotal).toBe(7);
    const table = await inject(t, { method: 'GET', url: `/api/answer/table/${c.chapterId}`, headers: admin });
    expect(table.body.exercises.map((e: { _id: string }) => e._id)).toEqual([c.pdf]);
    expect((await inject(t, { method: 'GET', url: `/api/answer/chapter/${c.chapterId}`, headers: c.pupil.headers })).body).toEqual([]);
    expect((await inject(t, { method: 'GET', url: `/api/exos/${c.numeric}`, headers: admin })).status).toBe(404);
    // A pupil's save to a binned exercise is refused.
    const save = await inject(t, {
      method: 'POST',
      url: '/api/answer',
      headers: c.pupil.headers,
      payload: { exerciseId: c.numeric, answer: '3', seq: 9 },
    });
    expect(save.status).toBeGreaterThanOrEqual(400);

    const bin = await inject(t, { method: 'GET', url: '/api/bin', headers: admin });
    expect(bin.body.find((e: { _id: string }) => e._id === c.numeric)).toMatchObject({
      kind: 'exercise',
      title: 'Somme',
      chapterTitle: 'Tour 2',
      chapterDeleted: false,
      answers: 1,
    });

    expect((await inject(t, { method: 'POST', url: `/api/exos/${c.numeric}/restore`, headers: admin })).body).toEqual({
      message: 'Exercice restauré',
    });
    const back = await inject(t, { method: 'GET', url: `/api/exos/chapter/${c.chapterId}`, headers: admin });
    expect(back.body.exercises.map((e: { _id: string }) => e._id)).toEqual([c.numeric, c.pdf]);
    expect((await inject(t, { method: 'GET', url: `/api/answer/chapter/${c.chapterId}`, headers: c.pupil.headers })).body).toMatchObject([
      { grade: '4' },
    ]);
    expect(await auditOf(c.numeric)).toEqual(['exercise.delete', 'exercise.restore']);
  });

  it('restores an exercise of a binned chapter only with its chapter', async () => {
    const c = await gradedChapter('Tour 3');
    await inject(t, { method: 'DELETE', url: `/api/exos/${c.numeric}`, headers: admin });
    await inject(t, { method: 'DELETE', url: `/api/chapter/${c.chapterId}`, headers: admin });
    const res = await inject(t, { method: 'POST', url: `/api/exos/${c.numeric}/restore`, headers: admin });
    expect(res).toMatchObject({ status: 409, body: { message: 'Son chapitre est dans la corbeille : restaurez d’abord le chapitre.' } });
    expect((await inject(t, { method: 'DELETE', url: `/api/exos/${c.pdf}`, headers: admin })).status).toBe(404);
  });
});

describe('purgeBin', () => {
  it('deletes for good what has been in the bin for more than 30 days, audited, and keeps the rest', async () => {
    const old = await gradedChapter('Ancien');
    const recent = await gradedChapter('Récent');
    const oldExercise = await gradedChapter('Exercice ancien');
    const now = new Date();
    await db()
      .update(chapters)
      .set({ deletedAt: new Date(now.getTime() - 31 * DAY) })
      .where(eq(chapters.id, old.chapterId));
    await db()
      .update(chapters)
      .set({ deletedAt: new Date(now.getTime() - 29 * DAY) })
      .where(eq(chapters.id, recent.chapterId));
    await db()
      .update(exercises)
      .set({ deletedAt: new Date(now.getTime() - 40 * DAY) })
      .where(eq(exercises.id, oldExercise.numeric));

    const counted = await purgeBin({ db: db(), store: store() }, now, { dryRun: true });
    expect(counted.chapters).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(chapters).where(eq(chapters.id, old.chapterId))).toHaveLength(1);

    const done = await purgeBin({ db: db(), store: store() }, now);
    expect(done).toEqual(counted);
    expect(await db().select().from(chapters).where(eq(chapters.id, old.chapterId))).toEqual([]);
    expect(await db().select().from(answers).where(eq(answers.id, old.answerId))).toEqual([]);
    expect(await db().select().from(chapters).where(eq(chapters.id, recent.chapterId))).toHaveLength(1);
    expect(await db().select().from(answers).where(eq(answers.id, recent.answerId))).toHaveLength(1);
    expect(await db().select().from(exercises).where(eq(exercises.id, oldExercise.numeric))).toEqual([]);
    expect(await db().select().from(exercises).where(eq(exercises.id, oldExercise.pdf))).toHaveLength(1);
    expect(await auditOf(old.chapterId)).toEqual(['chapter.purge']);
    expect(await auditOf(oldExercise.numeric)).toEqual(['exercise.purge']);
    const [{ n }] = (await db().execute(sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'chapter.purge' AND actor_id IS NULL`))
      .rows as Array<{ n: number }>;
    expect(Number(n)).toBeGreaterThanOrEqual(1);
    expect(
      await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, recent.chapterId), eq(auditLog.action, 'chapter.purge'))),
    ).toEqual([]);
  });

  it('erases the PDF files only the purged answers and scans used, and keeps a file a kept answer still uses', async () => {
    const old = await gradedChapter('Copies anciennes');
    const kept = await gradedChapter('Copies gardées');
    const pdfBytes = Buffer.from('%PDF-1.4 copie');
    const stored = async () => {
      const [f] = await db().insert(files).values({ size: pdfBytes.length }).returning();
      await store().put(f.id, pdfBytes);
      return f.id;
    };
    const own = await stored();
    const shared = await stored();
    const scan = await stored();
    await db()
      .insert(answers)
      .values([
        { userId: old.pupil.id, exerciseId: old.pdf, answer: `pdfs/${own}.pdf`, fileId: own, seq: 2 },
        { userId: old.pupil.id, exerciseId: old.numeric, answer: `pdfs/${shared}.pdf`, fileId: shared, seq: 3 },
        { userId: kept.pupil.id, exerciseId: kept.pdf, answer: `pdfs/${shared}.pdf`, fileId: shared, seq: 2 },
      ]);
    await db().insert(unlabeledAnswers).values({ chapterId: old.chapterId, fileId: scan });
    const now = new Date();
    await db()
      .update(chapters)
      .set({ deletedAt: new Date(now.getTime() - 31 * DAY) })
      .where(eq(chapters.id, old.chapterId));

    const counted = await purgeBin({ db: db(), store: store() }, now, { dryRun: true });
    expect(counted.filesErased).toBe(2);
    expect(await store().get(own)).not.toBeNull();
    const done = await purgeBin({ db: db(), store: store() }, now);
    expect(done.filesErased).toBe(2);
    expect(await store().get(own)).toBeNull();
    expect(await store().get(scan)).toBeNull();
    expect(await db().select().from(files).where(eq(files.id, own))).toEqual([]);
    expect(await store().get(shared)).toEqual(pdfBytes);
    expect(await db().select().from(files).where(eq(files.id, shared))).toHaveLength(1);
  });
});
