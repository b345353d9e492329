import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import {
  COPIES_NOT_RETURNED_MESSAGE,
  regradePlaceText,
  RESULTS_NOT_PUBLISHED_MESSAGE,
  type Annotation,
  type MyRegrade,
} from '@olympe/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, chapters, files, gradings, institutions } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import { renderCorrectedCopiesInWorker } from '../src/pdf/pdf-pool.js';
import { insertChapter } from './fixtures/chapter.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * Returned copies (docs/product.md#returned-copies, decision 162): the chapter switch, a pupil's own copies with the
 * marks of the grade that counts, the corrector named only when the chapter says so, the flattened PDF and the
 * schools' ZIP.
 */

type Headers = Record<string, string>;
let t: TestApp;
let admin: Headers;
let corrector: { id: string; headers: Headers };
let second: { id: string; headers: Headers };
let arbiter: { id: string; headers: Headers };
const db = () => t.database.db;
const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
let seq = 1;
let n = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
  corrector = await createUser(t, 'member', { firstName: 'Marie', lastName: 'Curie' });
  second = await createUser(t, 'member', { firstName: 'Paul', lastName: 'Erdős' });
  arbiter = await createUser(t, 'admin', { firstName: 'Emmy', lastName: 'Noether' });
});
afterAll(async () => t.close());

/** A white A4 PDF of `pages` pages, stored as the pupil's upload. */
async function storedCopy(ownerId: string, pages = 2): Promise<string> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595.28, 841.89]);
  const bytes = Buffer.from(await doc.save());
  const [file] = await db().insert(files).values({ size: bytes.length, ownerId }).returning();
  await openFileStore({ config: t.config, db: db() }).put(file.id, bytes);
  return file.id;
}

const INK: Annotation = {
  id: 'ink-1',
  page: 0,
  kind: 'ink',
  color: 'red',
  points: [
    [0.2, 0.3],
    [0.4, 0.3],
    [0.6, 0.32],
  ],
};
const NOTE: Annotation = { id: 'note-1', page: 1, kind: 'note', x: 0.1, y: 0.5, text: 'Hypothèse non justifiée' };
const BOX: Annotation = { id: 'box-1', page: 0, kind: 'box', x: 0.1, y: 0.6, w: 0.3, h: 0.1 };

/**
 * A published chapter returning its copies (unless told) with a PDF exercise worth 10 points; pupils of school A
 * (Ada, Bob) and B (Cyd) answered it, each graded by the corrector with marks on the copy.
 */
async function returnedChapter(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [schoolA, schoolB] = await db()
    .insert(institutions)
    .values([
      { name: 'Collège Galois', confirmed: true },
      { name: 'Lycée Germain', confirmed: true },
    ])
    .returning();
  const {
    chapterId,
    exerciseIds: [pdf],
  } = await insertChapter(db(), {
    fields: { copiesReturned: true, ...fields },
    openToAll: true,
    exercises: [{ title: 'Preuve', answerFormat: 'pdf', maxPoints: 10 }],
  });
  const pupil = (lastName: string, institutionId: string) =>
    createUser(t, 'pupil', {
      ...PUPIL_PROFILE,
      firstName: 'Élève',
      lastName,
      email: `${lastName.toLowerCase()}-${++n}@eleves.fr`,
      institutionId,
    });
  const ada = await pupil('Lovelace', schoolA.id);
  const bob = await pupil('Boole', schoolA.id);
  const cyd = await pupil('Cantor', schoolB.id);
  const answerIds: Record<string, string> = {};
  const fileIds: Record<string, string> = {};
  for (const p of [ada, bob, cyd]) {
    fileIds[p.id] = await storedCopy(p.id);
    const [a] = await db()
      .insert(answers)
      .values({
        userId: p.id,
        exerciseId: pdf,
        answer: `pdfs/${fileIds[p.id]}.pdf`,
        fileId: fileIds[p.id],
        seq: seq++,
        grade: '7',
        gradeComment: 'Bonne idée, rédaction à reprendre',
        graderId: corrector.id,
        gradeTimestamp: new Date(),
      })
      .returning();
    answerIds[p.id] = a.id;
    if (!fields.doubleGrading) {
      await db()
        .insert(gradings)
        .values({ answerId: a.id, exerciseId: pdf, graderId: corrector.id, grade: '7', annotations: [INK, NOTE, BOX] });
    }
  }
  const teacherA = await createUser(t, 'teacher', { firstName: 'Prof', lastName: 'A', institutionId: schoolA.id });
  return { chapterId, pdf, ada, bob, cyd, answerIds, fileIds, schoolA, schoolB, teacherA };
}

describe('returned copies', () => {
  it('gives the pupil their copy, grade, comment and marks, and the copy’s file through its usual route', async () => {
    const f = await returnedChapter();
    const res = await get(`/api/results/${f.chapterId}/copies`, f.ada.headers);
    expect(res.status).toBe(200);
    expect(res.body.exercises).toHaveLength(1);
    const [copy] = res.body.exercises;
    expect(copy).toMatchObject({ _id: f.pdf, grade: 7, maxPoints: 10, comment: 'Bonne idée, rédaction à reprendre' });
    expect(copy.pdf).toBe(`pdfs/${f.fileIds[f.ada.id]}.pdf`);
    expect(copy.layers).toHaveLength(1);
    expect(copy.layers[0].annotations.map((a: Annotation) => a.id)).toEqual(['ink-1', 'note-1', 'box-1']);
    expect(copy.layers[0]).not.toHaveProperty('corrector');
    expect((await get(`/api/${copy.pdf}`, f.ada.headers)).status).toBe(200);
  });

  it('refuses while the switch is off, before publication, and another pupil’s copies; admins read any pupil’s', async () => {
    const off = await returnedChapter({ copiesReturned: false });
    const refused = await get(`/api/results/${off.chapterId}/copies`, off.ada.headers);
    expect(refused).toMatchObject({ status: 403, body: { message: COPIES_NOT_RETURNED_MESSAGE } });
    const early = await returnedChapter({ analysis: false, publishAt: new Date(Date.now() + 3_600_000) });
    const before = await get(`/api/results/${early.chapterId}/copies`, early.ada.headers);
    expect(before).toMatchObject({ status: 403, body: { message: RESULTS_NOT_PUBLISHED_MESSAGE } });
    const other = await get(`/api/results/${off.chapterId}/copies?user=${off.ada.id}`, off.bob.headers);
    expect(other).toMatchObject({ status: 403, body: { message: 'Vous ne pouvez voir que vos propres copies.' } });
    const byAdmin = await get(`/api/results/${off.chapterId}/copies?user=${off.ada.id}`, admin);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.exercises[0].layers[0].annotations).toHaveLength(3);
  });

  it('never names the corrector unless the chapter says so, anonymous chapter included', async () => {
    const anonymous = await returnedChapter({ anonymousGrading: true });
    const res = await get(`/api/results/${anonymous.chapterId}/copies`, anonymous.ada.headers);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/Curie|Marie/);
    await db().update(chapters).set({ correctorNamed: true }).where(eq(chapters.id, anonymous.chapterId));
    const named = await get(`/api/results/${anonymous.chapterId}/copies`, anonymous.ada.headers);
    expect(named.body.exercises[0].layers[0].corrector).toBe('Marie Curie');
  });

  it('under double marking shows no layer before settlement, both once settled, the arbiter’s after an arbitration', async () => {
    const f = await returnedChapter({ doubleGrading: true, gradingTolerance: 1, correctorNamed: true });
    const answerId = f.answerIds[f.ada.id];
    const layer = (id: string): Annotation => ({ id, page: 0, kind: 'tick', x: 0.5, y: 0.5 });
    await db()
      .insert(gradings)
      .values({ answerId, exerciseId: f.pdf, graderId: corrector.id, grade: '7', annotations: [layer('first')] });
    const one = await get(`/api/results/${f.chapterId}/copies`, f.ada.headers);
    expect(one.body.exercises[0].layers).toEqual([]);
    const [b] = await db()
      .insert(gradings)
      .values({ answerId, exerciseId: f.pdf, graderId: second.id, grade: '3', annotations: [layer('second')] })
      .returning();
    const apart = await get(`/api/results/${f.chapterId}/copies`, f.ada.headers);
    expect(apart.body.exercises[0].layers).toEqual([]);
    await db().update(gradings).set({ grade: '7.5' }).where(eq(gradings.id, b.id));
    const settled = await get(`/api/results/${f.chapterId}/copies`, f.ada.headers);
    expect(settled.body.exercises[0].layers.map((l: { corrector: string }) => l.corrector)).toEqual(['Marie Curie', 'Paul Erdős']);
    await db()
      .insert(gradings)
      .values({ answerId, exerciseId: f.pdf, graderId: arbiter.id, grade: '7', arbitration: true, annotations: [layer('arbiter')] });
    const arbitrated = await get(`/api/results/${f.chapterId}/copies`, f.ada.headers);
    expect(arbitrated.body.exercises[0].layers).toEqual([{ corrector: 'Emmy Noether', annotations: [layer('arbiter')] }]);
  });
});

const run = promisify(execFile);

async function withFile<T>(bytes: Uint8Array, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-returned-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), bytes);
    return await use(path.join(dir, 'in.pdf'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const textOf = (pdf: Uint8Array) => withFile(pdf, async (f) => (await run('pdftotext', [f, '-'])).stdout);

/** Page `page` (1-based) in colour at 50 dpi: width, height and RGB bytes of pdftoppm's PPM. */
const pixelsOf = (pdf: Uint8Array, page: number) =>
  withFile(pdf, async (f) => {
    await run('pdftoppm', ['-r', '50', '-f', String(page), '-l', String(page), '-singlefile', f, `${f}-p`]);
    const ppm = await readFile(`${f}-p.ppm`);
    const header = ppm.toString('latin1', 0, 40).split(/\s+/);
    const [width, height] = [Number(header[1]), Number(header[2])];
    return { width, height, data: ppm.subarray(ppm.length - width * height * 3) };
  });

/** Red pixels in a rectangle of page fractions. */
function redIn(img: { width: number; height: number; data: Buffer }, x0: number, y0: number, x1: number, y1: number): number {
  let red = 0;
  for (let y = Math.floor(y0 * img.height); y < Math.ceil(y1 * img.height); y++) {
    for (let x = Math.floor(x0 * img.width); x < Math.ceil(x1 * img.width); x++) {
      const i = (y * img.width + x) * 3;
      if (img.data[i] > 180 && img.data[i + 1] < 90 && img.data[i + 2] < 90) red++;
    }
  }
  return red;
}

describe('« Ma copie corrigée »', () => {
  // Rendering the pages back with pdftoppm takes seconds on a loaded machine.
  it('draws the marks where they were made, writes the notes, the grade and the comment', { timeout: 90_000 }, async () => {
    const f = await returnedChapter();
    const res = await t.app.inject({ method: 'GET', url: `/api/results/${f.chapterId}/copies/${f.pdf}.pdf`, headers: f.ada.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('Ma copie corrigée - Tour 1 - Preuve.pdf');
    const pdf = res.rawPayload;
    // The first page is the summary, then the copy's two pages.
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(3);
    const text = (await textOf(pdf)).replace(/\s+/g, ' ');
    expect(text).toContain('Ma copie corrigée');
    expect(text).toContain('Note : 7 / 10');
    expect(text).toContain('Bonne idée, rédaction à reprendre');
    expect(text).toContain('Hypothèse non justifiée');
    expect(text).not.toContain('Curie');
    const page = await pixelsOf(pdf, 2);
    // The stroke ran along y = 0.3 from x = 0.2 to 0.6; the box's top edge is at y = 0.6.
    expect(redIn(page, 0.25, 0.27, 0.55, 0.35)).toBeGreaterThan(10);
    expect(redIn(page, 0.15, 0.58, 0.35, 0.62)).toBeGreaterThan(5);
    expect(redIn(page, 0.1, 0.8, 0.9, 0.95)).toBe(0);
    const refused = await get(`/api/results/${f.chapterId}/copies/${f.pdf}.pdf?user=${f.ada.id}`, f.bob.headers);
    expect(refused.status).toBe(403);
  });

  it('draws a 10-page copy with marks on every page (its time logged; bench/returned measures it)', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 10; i++) doc.addPage([595.28, 841.89]);
    const pdf = await doc.save();
    const annotations: Annotation[] = Array.from({ length: 10 }, (_, page) => [
      {
        ...INK,
        id: `i${page}`,
        page,
        points: Array.from({ length: 300 }, (_, k) => [0.1 + k / 400, 0.3 + Math.sin(k / 10) / 50] as [number, number]),
      },
      { ...NOTE, id: `n${page}`, page },
      { ...BOX, id: `b${page}`, page },
    ]).flat();
    const data = {
      chapterTitle: 'Tour 1',
      exerciseTitle: 'Preuve',
      pupil: 'Ada LOVELACE',
      grade: '7 / 10',
      comment: 'Bien',
      correctors: [],
      items: {},
    };
    await renderCorrectedCopiesInWorker([{ ...data, pdf: new Uint8Array(pdf), annotations }]);
    const started = performance.now();
    const [rendered] = await renderCorrectedCopiesInWorker([{ ...data, pdf: new Uint8Array(pdf), annotations }]);
    const ms = performance.now() - started;
    console.log(`returned copies: a 10-page corrected copy in ${ms.toFixed(0)} ms`);
    expect((await PDFDocument.load(rendered.bytes)).getPageCount()).toBe(11);
  });
});

/** The files of a ZIP, by name, read through its central directory (stored entries). */
function zipFiles(zip: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < zip.readUInt16LE(eocd + 10); i++) {
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    out.set(name, zip.subarray(start, start + size));
  }
  return out;
}

describe('a school’s ZIP of corrected copies', () => {
  it('holds its own pupils’ corrected copies, one folder per pupil, and nothing of another school', async () => {
    const f = await returnedChapter();
    const res = await t.app.inject({ method: 'GET', url: `/api/results/${f.chapterId}/copies.zip`, headers: f.teacherA.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const entries = zipFiles(res.rawPayload);
    expect([...entries.keys()]).toEqual(['BOOLE Élève/01 Preuve.pdf', 'LOVELACE Élève/01 Preuve.pdf']);
    const copy = entries.get('LOVELACE Élève/01 Preuve.pdf')!;
    expect((await PDFDocument.load(copy)).getPageCount()).toBe(3);
    expect((await textOf(copy)).replace(/\s+/g, ' ')).toContain('Hypothèse non justifiée');
    const other = await get(`/api/results/${f.chapterId}/copies.zip?institution=${f.schoolB.id}`, f.teacherA.headers);
    expect(other.status).toBe(403);
    const byAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/results/${f.chapterId}/copies.zip?institution=${f.schoolB.id}`,
      headers: admin,
    });
    expect([...zipFiles(byAdmin.rawPayload).keys()]).toEqual(['CANTOR Élève/01 Preuve.pdf']);
    await db().update(chapters).set({ copiesReturned: false }).where(eq(chapters.id, f.chapterId));
    const off = await get(`/api/results/${f.chapterId}/copies.zip`, f.teacherA.headers);
    expect(off).toMatchObject({ status: 403, body: { message: COPIES_NOT_RETURNED_MESSAGE } });
  });
});

describe('a regrade request pointing at the copy', () => {
  it('carries a page region or a mark, which the correctors’ queue shows', async () => {
    const f = await returnedChapter({ regradeUntil: new Date(Date.now() + 3_600_000) });
    const ask = (headers: Headers, payload: Record<string, unknown>) =>
      inject(t, { method: 'POST', url: '/api/regrade', headers, payload: { message: 'Relisez ce passage.', ...payload } });
    const region = { x: 0.1, y: 0.2, w: 0.5, h: 0.1 };
    const noPage = await ask(f.ada.headers, { answerId: f.answerIds[f.ada.id], region });
    expect(noPage).toMatchObject({ status: 400, body: { message: 'Indiquez la page de la zone marquée.' } });
    const unknown = await ask(f.ada.headers, { answerId: f.answerIds[f.ada.id], annotationId: 'ailleurs' });
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Cette annotation n’est pas sur votre copie.' } });
    expect((await ask(f.ada.headers, { answerId: f.answerIds[f.ada.id], page: 1, region })).status).toBe(201);
    expect((await ask(f.bob.headers, { answerId: f.answerIds[f.bob.id], annotationId: 'note-1' })).status).toBe(201);
    const queue = await get(`/api/regrade?chapter=${f.chapterId}`, corrector.headers);
    expect(queue.status).toBe(200);
    const byPupil = new Map(queue.body.requests.map((r: { answerId: string }) => [r.answerId, r]));
    const onRegion = byPupil.get(f.answerIds[f.ada.id]);
    expect(onRegion).toMatchObject({ page: 1, region, annotation: null });
    expect(regradePlaceText(onRegion as MyRegrade)).toBe('Page 2, zone marquée');
    const onMark = byPupil.get(f.answerIds[f.bob.id]);
    expect(onMark).toMatchObject({ page: null, annotation: { id: 'note-1', page: 1, text: 'Hypothèse non justifiée' } });
    expect(regradePlaceText(onMark as MyRegrade)).toBe('Page 2\u00a0: Hypothèse non justifiée');
    const mine = await get(`/api/regrade/mine/${f.chapterId}`, f.ada.headers);
    expect(mine.body.requests[0]).toMatchObject({ page: 1, region });
  });
});
