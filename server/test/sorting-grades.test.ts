import { randomUUID } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, auditLog, chapters, exercises, files, gradings, institutions, unlabeledAnswers } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import type { FileStore } from '../src/files/store.js';
import { makeSampleScan } from '../src/sorting/sample-scan.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * Decision 139: sorting never loses a grade. Pages added to a graded, double-graded or settled copy keep
 * its grade, gradings, comment and the table's counts; a copy sent back to sorting keeps its grade on its
 * row and in the audit log, and gets it back when its pages return to its pupil and exercise.
 */

let t: TestApp;
let store: FileStore;
type Headers = Record<string, string>;
const db = () => t.database.db;

let school: string;
let admin: { id: string; headers: Headers };
let first: { id: string; headers: Headers };
let second: { id: string; headers: Headers };

beforeAll(async () => {
  t = await buildTestApp();
  store = openFileStore({ config: t.config, db: db() });
  [{ id: school }] = await db().insert(institutions).values({ name: 'Collège Pascal' }).returning();
  admin = await createUser(t, 'admin');
  first = await createUser(t, 'member', { firstName: 'Marie', lastName: 'Première' });
  second = await createUser(t, 'member', { firstName: 'Marc', lastName: 'Second' });
});
afterAll(async () => t.close());

/** A chapter of two PDF exercises worth 10, with single or double correction (tolerance 2). */
async function chapterWith(double: boolean) {
  const [c] = await db()
    .insert(chapters)
    .values({ title: 'Demi-finale', offline: true, doubleGrading: double, gradingTolerance: 2 })
    .returning();
  const [ex1, ex2] = await db()
    .insert(exercises)
    .values([
      { chapterId: c.id, position: 0, title: 'Arithmétique', answerFormat: 'pdf', maxPoints: 10 },
      { chapterId: c.id, position: 1, title: 'Géométrie', answerFormat: 'pdf', maxPoints: 10 },
    ])
    .returning();
  return { chapterId: c.id, ex1: ex1.id, ex2: ex2.id };
}

let pupils = 0;
const pupil = async () => (await createUser(t, 'pupil', { ...PUPIL_PROFILE, lastName: `Élève${++pupils}`, institutionId: school })).id;

/** A scan of `pages` pages (widths 300 + `offset` + i, to tell them apart) filed for the chapter. */
async function fileScan(chapterId: string, pages: number, offset = 0) {
  const bytes = await makeSampleScan(Array.from({ length: pages }, (_, i) => ({ text: `Page ${i + 1}`, width: 300 + offset + i })));
  const fileId = randomUUID();
  await store.put(fileId, bytes);
  await db()
    .insert(files)
    .values({ id: fileId, ownerId: admin.id, institutionId: school, originalName: 'scan.pdf', size: bytes.length, pages });
  const [row] = await db().insert(unlabeledAnswers).values({ chapterId, fileId, institutionId: school, uploadedBy: admin.id }).returning();
  return row.id;
}

/** Labels a copy (an admin may label any copy), each page to [pupil, exercise] or blank (null). */
async function labelAll(copyId: string, pages: Array<[string, string] | null>) {
  const body = pages.map((p, i) => ({ pageNum: i + 1, user: p ? p[0] : null, exercises: p ? [p[1]] : [], rotation: 0 }));
  const res = await inject(t, { method: 'POST', url: `/api/answer/label/${copyId}`, headers: admin.headers, payload: body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { message: string; answers: Array<{ _id: string; user: string; exercise: string; answer: string }> };
}

const relabel = (answerId: string) =>
  inject(t, { method: 'POST', url: '/api/answer/relabel/', headers: admin.headers, payload: { answerId } });

async function deskOf(headers: Headers, userId: string, exerciseId: string) {
  const res = await inject(t, { method: 'GET', url: `/api/answer/history/${userId}/${exerciseId}`, headers });
  expect(res.status).toBe(200);
  return res.body;
}

async function gradeAs(headers: Headers, userId: string, exerciseId: string, grade: string, comment = '') {
  const h = await deskOf(headers, userId, exerciseId);
  const res = await inject(t, {
    method: 'POST',
    url: '/api/answer/grade',
    headers,
    payload: {
      answerId: h.result.answerId,
      grade,
      grade_comment: comment,
      hidden: false,
      expectedGradeTimestamp: h.result.grade_timestamp ?? null,
      // Decision 159: the corrector's marks, which sorting must keep with the grade.
      annotations: [{ id: `tick-${grade}`, page: 0, kind: 'tick', x: 0.5, y: 0.5 }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** What must not move when pages are sorted: the copy's row, grade, comment, gradings, and the table's cell and counts. */
async function gradeState(chapterId: string, userId: string, exerciseId: string) {
  const [current] = await db()
    .select()
    .from(answers)
    .where(and(eq(answers.userId, userId), eq(answers.exerciseId, exerciseId), isNull(answers.withdrawnAt)))
    .orderBy(desc(answers.seq), desc(answers.createdAt));
  const kept = current
    ? await db()
        .select({
          grader: gradings.graderId,
          grade: gradings.grade,
          comment: gradings.gradeComment,
          items: gradings.items,
          annotations: gradings.annotations,
        })
        .from(gradings)
        .where(eq(gradings.answerId, current.id))
    : [];
  const table = (await inject(t, { method: 'GET', url: `/api/answer/table/${chapterId}`, headers: admin.headers })).body;
  const col = table.exercises.findIndex((e: { _id: string }) => e._id === exerciseId);
  const header = (await inject(t, { method: 'GET', url: `/api/answer/table/${chapterId}?limit=0`, headers: admin.headers })).body;
  return {
    answerId: current?.id,
    grade: current?.grade,
    comment: current?.gradeComment,
    gradings: kept.sort((a, b) => String(a.grader).localeCompare(String(b.grader))),
    cell: table.users[userId]?.data[col],
    counts: header.page.counts[col],
    progress: table.progress[col],
  };
}

async function pagesOf(answerId: string): Promise<number[]> {
  const [row] = await db().select().from(answers).where(eq(answers.id, answerId));
  const bytes = await store.get(row.fileId!);
  const doc = await PDFDocument.load(bytes!);
  return doc.getPages().map((p) => Math.round(p.getWidth()));
}

const flagOf = async (chapterId: string, userId: string, exerciseId: string) => {
  const table = (await inject(t, { method: 'GET', url: `/api/answer/table/${chapterId}`, headers: first.headers })).body;
  const col = table.exercises.findIndex((e: { _id: string }) => e._id === exerciseId);
  return {
    desk: (await deskOf(first.headers, userId, exerciseId)).desk.pagesAddedAfterGrade,
    table: (table.users[userId]?.pagesAdded ?? []).includes(col),
  };
};

const auditOf = (answerId: string) => db().select().from(auditLog).where(eq(auditLog.targetId, answerId)).orderBy(asc(auditLog.id));

describe('pages sorted onto a graded copy (decision 139)', () => {
  it('a graded copy receiving a page keeps its grade, comment and counts, holds both scans’ pages and is flagged until graded again', async () => {
    const { chapterId, ex1 } = await chapterWith(false);
    const p = await pupil();
    const [sorted] = (await labelAll(await fileScan(chapterId, 1), [[p, ex1]])).answers;
    await gradeAs(first.headers, p, ex1, '6.5', 'Bien');
    const before = await gradeState(chapterId, p, ex1);
    expect(before).toMatchObject({ grade: '6.5', comment: 'Bien', cell: '6.5', counts: { graded: 1, answered: 1 } });
    expect(await flagOf(chapterId, p, ex1)).toMatchObject({ table: false });

    const res = await labelAll(await fileScan(chapterId, 1, 50), [[p, ex1]]);
    expect(res.message).toBe(
      'Copie triée\u00a0: 1 copie enregistrée. 1 copie déjà notée garde sa note\u00a0: ses correcteurs sont prévenus des pages ajoutées.',
    );
    expect(res.answers[0]._id).toBe(sorted._id);
    expect(await gradeState(chapterId, p, ex1)).toEqual(before);
    expect(await pagesOf(sorted._id)).toEqual([300, 350]);
    expect(await flagOf(chapterId, p, ex1)).toEqual({ desk: true, table: true });
    expect((await auditOf(sorted._id)).map((a) => [a.action, (a.details as { grade: string }).grade])).toContainEqual([
      'sorting.pages_added',
      '6.5',
    ]);

    // A corrector saving a grade again ends the notice (audited).
    await gradeAs(first.headers, p, ex1, '7', 'Bien, page 2 lue');
    expect(await flagOf(chapterId, p, ex1)).toEqual({ desk: false, table: false });
    expect((await auditOf(sorted._id)).map((a) => a.action)).toContain('grading.pages_added_cleared');
  });

  it('a settled double correction keeps both gradings and its mean; a corrector dismisses the notice', async () => {
    const { chapterId, ex1 } = await chapterWith(true);
    const p = await pupil();
    const [sorted] = (await labelAll(await fileScan(chapterId, 1), [[p, ex1]])).answers;
    await gradeAs(first.headers, p, ex1, '6', 'Juste');
    await gradeAs(second.headers, p, ex1, '7', 'Propre');
    const before = await gradeState(chapterId, p, ex1);
    expect(before).toMatchObject({ grade: '6.5', cell: '6.5', counts: { graded: 1 }, progress: { graded2: 1 } });
    expect(before.gradings).toHaveLength(2);

    await labelAll(await fileScan(chapterId, 2, 50), [
      [p, ex1],
      [p, ex1],
    ]);
    expect(await gradeState(chapterId, p, ex1)).toEqual(before);
    expect(await pagesOf(sorted._id)).toEqual([300, 350, 351]);
    expect((await deskOf(first.headers, p, ex1)).desk).toMatchObject({ status: 'settled', pagesAddedAfterGrade: true });

    const dismissed = await inject(t, { method: 'DELETE', url: `/api/answer/pages-added/${sorted._id}`, headers: second.headers });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.message).toBe('Avertissement retiré\u00a0: la note de cette copie reste inchangée.');
    expect(await flagOf(chapterId, p, ex1)).toEqual({ desk: false, table: false });
    expect(await gradeState(chapterId, p, ex1)).toEqual(before);
    expect((await auditOf(sorted._id)).map((a) => a.action)).toContain('grading.pages_added_dismissed');
    expect((await inject(t, { method: 'DELETE', url: `/api/answer/pages-added/${randomUUID()}`, headers: second.headers })).status).toBe(
      404,
    );
  });

  it('a copy with one grading of two keeps it: the second corrector still has it to grade', async () => {
    const { chapterId, ex1 } = await chapterWith(true);
    const p = await pupil();
    const [sorted] = (await labelAll(await fileScan(chapterId, 1), [[p, ex1]])).answers;
    await gradeAs(first.headers, p, ex1, '3', 'À moitié');
    const before = await gradeState(chapterId, p, ex1);
    expect(before).toMatchObject({ grade: null, progress: { graded1: 1 } });

    await labelAll(await fileScan(chapterId, 1, 50), [[p, ex1]]);
    expect(await gradeState(chapterId, p, ex1)).toEqual(before);
    expect((await deskOf(second.headers, p, ex1)).desk).toMatchObject({ role: 'second', pagesAddedAfterGrade: true });
    expect(await pagesOf(sorted._id)).toEqual([300, 350]);
  });

  it('moving a graded copy onto another graded copy: the receiver keeps its grade, the copy moved keeps its own on its row and in the audit log', async () => {
    const { chapterId, ex1 } = await chapterWith(false);
    const [p, q] = [await pupil(), await pupil()];
    const [receiver] = (await labelAll(await fileScan(chapterId, 1), [[p, ex1]])).answers;
    const [moved] = (await labelAll(await fileScan(chapterId, 1, 50), [[q, ex1]])).answers;
    await gradeAs(first.headers, p, ex1, '6.5', 'Bien');
    await gradeAs(first.headers, q, ex1, '4', 'Page de Q');
    const withBoth = await gradeState(chapterId, p, ex1);
    expect(withBoth.counts).toEqual({ graded: 2, answered: 2 });

    const sentBack = await relabel(moved._id);
    expect(sentBack.status).toBe(200);
    // Q's copy leaves the table (one graded copy fewer); P's is untouched.
    const before = await gradeState(chapterId, p, ex1);
    expect(before).toEqual({
      ...withBoth,
      counts: { graded: 1, answered: 1 },
      progress: { ...withBoth.progress, answered: 1, graded1: 1 },
    });
    expect(sentBack.body.message).toBe(
      'Copie remise au triage. Sa note est conservée\u00a0: elle lui sera rendue si ses pages reviennent à cet élève pour cet exercice.',
    );
    const [row] = await db().select().from(answers).where(eq(answers.id, moved._id));
    expect(row).toMatchObject({ grade: '4', gradeComment: 'Page de Q' });
    expect(row.withdrawnAt).not.toBeNull();
    expect(row.pagesAddedAt).not.toBeNull();
    expect(await db().select().from(gradings).where(eq(gradings.answerId, moved._id))).toHaveLength(1);
    expect((await auditOf(moved._id)).find((a) => a.action === 'sorting.relabel')?.details).toMatchObject({
      grade: '4',
      gradeComment: 'Page de Q',
      gradings: 1,
    });

    // The page was P's: sorted to P, it joins P's graded copy.
    const res = await labelAll(sentBack.body._id, [[p, ex1]]);
    expect(res.answers[0]._id).toBe(receiver._id);
    expect(await gradeState(chapterId, p, ex1)).toEqual(before);
    expect(await pagesOf(receiver._id)).toEqual([300, 350]);
    expect(await flagOf(chapterId, p, ex1)).toEqual({ desk: true, table: true });
    // Q's copy is still there, withdrawn, with its grade.
    const [still] = await db().select().from(answers).where(eq(answers.id, moved._id));
    expect(still).toMatchObject({ grade: '4', gradeComment: 'Page de Q' });
  });

  it('removing a page from a graded copy: sent back and sorted again to its pupil, it comes back with its grade, flagged', async () => {
    const { chapterId, ex1, ex2 } = await chapterWith(false);
    const p = await pupil();
    const [sorted] = (
      await labelAll(await fileScan(chapterId, 2), [
        [p, ex2],
        [p, ex2],
      ])
    ).answers;
    await labelAll(await fileScan(chapterId, 1, 80), [[p, ex1]]);
    await gradeAs(first.headers, p, ex2, '8', 'Très bien');
    const before = await gradeState(chapterId, p, ex2);
    expect(before).toMatchObject({ grade: '8', cell: '8', counts: { graded: 1 } });

    const sentBack = await relabel(sorted._id);
    expect(sentBack.status).toBe(200);
    // Page 2 was not this pupil's: left blank; page 1 goes back to the pupil and exercise.
    const res = await labelAll(sentBack.body._id, [[p, ex2], null]);
    expect(res.answers[0]._id).toBe(sorted._id);
    expect(await gradeState(chapterId, p, ex2)).toEqual(before);
    expect(await pagesOf(sorted._id)).toEqual([300]);
    expect(await flagOf(chapterId, p, ex2)).toEqual({ desk: true, table: true });
    expect((await auditOf(sorted._id)).map((a) => a.action)).toEqual(
      expect.arrayContaining(['sorting.relabel', 'sorting.graded_copy_restored']),
    );
  });
});
