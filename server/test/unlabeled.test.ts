import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chapters, groupMembers, institutions, MEMBERS_GROUP_ID, unlabeledAnswers } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, loginAs, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

let t: TestApp;
let A: string;
let B: string;
let chapterId: string;
let onlineChapterId: string;
let pdfBytes: Buffer;
type Headers = Record<string, string>;
let teacherA: { id: string; headers: Headers };
let teacherB: { id: string; headers: Headers };

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  [{ id: A }, { id: B }] = await db
    .insert(institutions)
    .values([{ name: 'Collège Pascal' }, { name: 'Lycée Fermat' }])
    .returning();
  [{ id: chapterId }, { id: onlineChapterId }] = await db
    .insert(chapters)
    .values([
      { title: 'Coupe papier', offline: true },
      { title: 'Coupe en ligne', offline: false },
    ])
    .returning();
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  pdfBytes = Buffer.from(await doc.save());
  teacherA = await createUser(t, 'teacher', { institutionId: A });
  teacherB = await createUser(t, 'teacher', { institutionId: B });
});
afterAll(async () => t.close());

/**
 * A scan uploaded through POST /pdfs as the web does (chapter field), returning its path. Each has its
 * own bytes (a random title): the same scan filed twice is refused (decision 58).
 */
async function uploadScan(headers: Headers, name = 'scan.pdf'): Promise<string> {
  const doc = await PDFDocument.load(pdfBytes);
  doc.setTitle(randomUUID());
  const bytes = Buffer.from(await doc.save());
  const { payload, headers: form } = multipart({ chapter: chapterId }, { name, bytes });
  const res = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...headers, ...form }, payload });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.path as string;
}

const post = (headers: Headers, payload: Record<string, unknown>, chapter = chapterId) =>
  inject(t, { method: 'POST', url: `/api/answer/unlabeled/${chapter}`, headers, payload });
const list = (headers: Headers, chapter = chapterId) => inject(t, { method: 'GET', url: `/api/answer/unlabeled/${chapter}`, headers });
const rowCount = async () => (await t.database.db.select().from(unlabeledAnswers)).length;

describe('POST /answer/unlabeled/{chapterId}', () => {
  it('a teacher files an uploaded scan under their school; it is listed with its path', async () => {
    const path = await uploadScan(teacherA.headers, 'salle-3.pdf');
    const res = await post(teacherA.headers, { answer: path, institution: A });
    expect(res.status).toBe(201);
    const [row] = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, res.body._id));
    expect(row).toMatchObject({ chapterId, institutionId: A, uploadedBy: teacherA.id, labeledAt: null });
    const listed = await list(teacherA.headers);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        _id: res.body._id,
        answer: path,
        institution: { _id: A, name: 'Collège Pascal' },
        originalName: 'salle-3.pdf',
        pages: 1,
        labeled: false,
        droppedBlanks: null,
      }),
    ]);
    // The copy can be viewed by the uploading school (Visualiser → /viewer/{answer}).
    const pdf = await inject(t, { method: 'GET', url: `/api/${path}`, headers: teacherA.headers });
    expect(pdf.status).toBe(200);
  });

  it('the institution defaults to the teacher’s own', async () => {
    const path = await uploadScan(teacherA.headers);
    const res = await post(teacherA.headers, { answer: path });
    expect(res.status).toBe(201);
    const [row] = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, res.body._id));
    expect(row.institutionId).toBe(A);
  });

  it('a teacher cannot file under another school, nor someone else’s file, nor the same file twice', async () => {
    const path = await uploadScan(teacherA.headers);
    const before = await rowCount();
    const other = await post(teacherA.headers, { answer: path, institution: B });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('Vous ne pouvez déposer des copies que pour votre établissement.');
    const stolen = await post(teacherB.headers, { answer: path, institution: B });
    expect(stolen.status).toBe(403);
    expect(await rowCount()).toBe(before);
    expect((await post(teacherA.headers, { answer: path })).status).toBe(201);
    const twice = await post(teacherA.headers, { answer: path });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Cette copie est déjà enregistrée.');
    expect(await rowCount()).toBe(before + 1);
  });

  it('bad input gets 400 in French and changes nothing', async () => {
    const before = await rowCount();
    for (const payload of [{}, { answer: '../../etc/passwd' }, { answer: 'pdfs/x.pdf' }, { answer: 42 }]) {
      const res = await post(teacherA.headers, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.message).toMatch(/^Données invalides/);
    }
    const garbage = await inject(t, { method: 'POST', url: '/api/answer/unlabeled/nope', headers: teacherA.headers, payload: {} });
    expect(garbage.status).toBe(400);
    const missing = await post(teacherA.headers, { answer: 'pdfs/00000000-0000-4000-8000-000000000abc.pdf' });
    expect(missing.status).toBe(404);
    const online = await post(teacherA.headers, { answer: await uploadScan(teacherA.headers) }, onlineChapterId);
    expect(online.status).toBe(400);
    expect(online.body.message).toBe('Ce chapitre n’est pas une épreuve papier.');
    expect(await rowCount()).toBe(before);
  });

  it('anonymous 401, pupils 403; members and admins may file under any school', async () => {
    const path = await uploadScan(teacherA.headers);
    expect((await post({}, { answer: path })).status).toBe(401);
    const pupil = await createUser(t, 'pupil', { institutionId: A });
    expect((await post(pupil.headers, { answer: path })).status).toBe(403);
    expect((await list({})).status).toBe(401);
    expect((await list(pupil.headers)).status).toBe(403);

    const member = await createUser(t, 'member');
    const memberPath = await uploadScan(member.headers);
    expect((await post(member.headers, { answer: memberPath, institution: B })).status).toBe(201);
    // An admin may file a file uploaded by someone else.
    const admin = await loginAs(t, 'admin');
    expect((await post(admin, { answer: path, institution: A })).status).toBe(201);
  });
});

describe('GET /answer/unlabeled/{chapterId}', () => {
  it('teachers see their school’s copies only; members and admins see all', async () => {
    const pathB = await uploadScan(teacherB.headers);
    expect((await post(teacherB.headers, { answer: pathB })).status).toBe(201);
    const total = await rowCount();

    const mineA = (await list(teacherA.headers)).body as Array<{ institution: { _id: string } | null }>;
    expect(mineA.length).toBeGreaterThan(0);
    expect(mineA.every((c) => c.institution?._id === A)).toBe(true);
    const mineB = (await list(teacherB.headers)).body as Array<{ answer: string }>;
    expect(mineB.map((c) => c.answer)).toContain(pathB);
    expect(mineB.every((c) => (c as unknown as { institution: { _id: string } }).institution._id === B)).toBe(true);

    expect((await list(await loginAs(t, 'member'))).body).toHaveLength(total);
    expect((await list(await loginAs(t, 'admin'))).body).toHaveLength(total);
    // A teacher who is also a member sorts copies: they see all.
    const both = await createUser(t, 'teacher', { institutionId: A });
    await t.database.db.insert(groupMembers).values({ groupId: MEMBERS_GROUP_ID, userId: both.id });
    expect((await list(both.headers)).body).toHaveLength(total);
  });

  it('a teacher without a school sees none', async () => {
    const { headers } = await createUser(t, 'teacher');
    const res = await list(headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('unknown chapter: 404', async () => {
    const res = await list(teacherA.headers, '00000000-0000-4000-8000-000000000abc');
    expect(res.status).toBe(404);
  });
});
