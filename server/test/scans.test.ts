import { and, eq } from 'drizzle-orm';
import { deflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFNumber, PDFRawStream, rgb } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, centerRegistrations, centers, chapters, exercises, institutions, jobs, unlabeledAnswers } from '../src/db/schema.js';
import { COPIER_ENCODINGS, copierScan, ocrmyPdf, type CopierEncoding } from './fixtures/copier-scan.js';
import { expectSamePages } from './fixtures/same-pages.js';
import { openFileStore } from '../src/files/store-select.js';
import { runPendingJobs } from '../src/sheets/jobs.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

/**
 * Decision 57: scans as office copiers make them, made with the real tools (copier-scan.ts), uploaded
 * through the API; each copy must label itself. Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
type Headers = Record<string, string>;
let t: TestApp;
let chapterId: string;
let exerciseId: string;
let teacher: { id: string; headers: Headers };
/** One pupil per encoding (and four more), in the sheets' order (by last name). */
let pupils: Array<{ id: string; lastName: string }>;
/** Centre sheets, 1 spare page: per pupil a cover, then 2 pages of the one PDF exercise. */
let sheets: Uint8Array;
const PER_PUPIL = 3;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const [school] = await db.insert(institutions).values({ name: 'Collège Sophie-Germain' }).returning();
  [{ id: chapterId }] = await db.insert(chapters).values({ title: 'Coupe papier', offline: true }).returning();
  [{ id: exerciseId }] = await db.insert(exercises).values({ chapterId, position: 0, title: 'Géométrie', answerFormat: 'pdf' }).returning();
  await db.insert(centers).values({ chapterId, institutionId: school.id, opened: true });
  teacher = await createUser(t, 'teacher', { institutionId: school.id });
  pupils = [];
  for (let i = 0; i < COPIER_ENCODINGS.length + 4; i++) {
    const lastName = `Élève-${String.fromCharCode(65 + i)}`;
    const p = await createUser(t, 'pupil', { ...PUPIL_PROFILE, lastName, institutionId: school.id });
    pupils.push({ id: p.id, lastName });
    await db.insert(centerRegistrations).values({ chapterId, userId: p.id, institutionId: school.id });
  }
  pupils.sort((a, b) => a.lastName.localeCompare(b.lastName));
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/sheets/${chapterId}.pdf?institution=${school.id}&spare=1`,
    headers: teacher.headers,
  });
  expect(res.statusCode).toBe(200);
  sheets = res.rawPayload;
});
afterAll(async () => t.close());

async function upload(bytes: Uint8Array, name: string): Promise<string> {
  const { payload, headers: form } = multipart({ chapter: chapterId }, { name, bytes });
  const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...teacher.headers, ...form }, payload });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  return up.body.path;
}

const file = (path: string) =>
  inject(t, { method: 'POST', url: `/api/answer/unlabeled/${chapterId}`, headers: teacher.headers, payload: { answer: path } });
const copyRow = async (id: string) => (await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, id)))[0];
const jobOf = async (id: string) => (await t.database.db.select().from(jobs)).find((j) => j.payload.unlabeledId === id)!;
const answersOf = (userId: string) =>
  t.database.db
    .select()
    .from(answers)
    .where(and(eq(answers.userId, userId), eq(answers.exerciseId, exerciseId)));

/**
 * Reading an encoding does not depend on the database, and each costs 10 to 20 s of rendering: the
 * replay on PostgreSQL (TEST_DATABASE_URL) files one bitonal and one photographic scan to exercise
 * its rows; the embedded run, in every `npm test`, reads them all.
 */
const ENCODINGS: readonly CopierEncoding[] = process.env.TEST_DATABASE_URL ? ['g4', 'dct'] : COPIER_ENCODINGS;

describe('every encoding a copier writes labels itself', () => {
  const turns = [0, 90, 180, 270] as const;
  for (const [n, encoding] of COPIER_ENCODINGS.entries()) {
    if (!ENCODINGS.includes(encoding)) continue;
    it(`${encoding}: a pupil’s cover and two answer pages, turned, noisy and blurred`, async () => {
      const pages = [0, 1, 2].map((k) => ({ page: n * PER_PUPIL + k, turn: turns[(n + k) % 4], skew: k === 1 ? 1.5 : -1, noise: 0.1 }));
      const scan = await copierScan(sheets, pages, encoding as CopierEncoding, { noise: 0.3, blur: 0.5, seed: n + 1 });
      const filed = await file(await upload(scan, `copieur-${encoding}.pdf`));
      expect(filed.status).toBe(201);
      await runPendingJobs(t.app.deps);

      const job = await jobOf(filed.body._id);
      expect(job.result, JSON.stringify(job.result)).toMatchObject({ pages: 3, read: 3, labeled: true });
      const copy = await copyRow(filed.body._id);
      expect(copy.pageReadings).toEqual(['read', 'read', 'read']);
      expect(copy.suggestions?.map((s) => [s.pageNum, s.user, s.rotation])).toEqual(
        pages.map((p, k) => [k + 1, k === 0 ? null : pupils[n].id, (360 - p.turn) % 360]),
      );
      const [answer] = await answersOf(pupils[n].id);
      // The pupil's copy is the scan's two answer pages, each turned upright as suggested.
      const sorted = (await openFileStore(t.app.deps).get(answer.fileId!))!;
      await expectSamePages(
        scan,
        [2, 3].map((page) => ({ page, rotation: (360 - pages[page - 1].turn) % 360 })),
        sorted,
      );
    }, 180_000);
  }

  it('a JPEG page wrapped in Flate, as ocrmypdf and PDF optimisers write it (/Filter [/FlateDecode /DCTDecode]), reads', async () => {
    const n = COPIER_ENCODINGS.length + 2;
    const doc = await PDFDocument.load(await copierScan(sheets, [{ page: n * PER_PUPIL + 1, noise: 0.1 }], 'dct', { noise: 0.2 }));
    let wrapped = 0;
    for (const [ref, stream] of doc.context.enumerateIndirectObjects()) {
      if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of('Filter')) !== PDFName.of('DCTDecode')) continue;
      const dict = stream.dict.clone(doc.context);
      dict.set(PDFName.of('Filter'), doc.context.obj(['FlateDecode', 'DCTDecode']));
      doc.context.assign(ref, PDFRawStream.of(dict, deflateSync(stream.contents)));
      wrapped += 1;
    }
    expect(wrapped).toBe(1);
    const filed = await file(await upload(await doc.save(), 'optimise.pdf'));
    await runPendingJobs(t.app.deps);
    const copy = await copyRow(filed.body._id);
    expect(copy.pageReadings).toEqual(['read']);
    expect(copy.suggestions?.map((s) => s.user)).toEqual([pupils[n].id]);
  }, 120_000);

  it('a scan made searchable by ocrmypdf (the real tool, --optimize 1: Flate around JPEG, an OCR text layer) reads', async () => {
    const n = COPIER_ENCODINGS.length + 3;
    const scan = await copierScan(
      sheets,
      [
        { page: n * PER_PUPIL + 1, noise: 0.1 },
        { page: n * PER_PUPIL + 2, noise: 0.1, turn: 180 },
      ],
      'dct',
      { noise: 0.2 },
    );
    const searchable = await ocrmyPdf(scan);
    expect(Buffer.from(searchable).toString('latin1')).toMatch(/\/Filter\s*\[\s*\/FlateDecode\s*\/DCTDecode\s*\]/);
    const filed = await file(await upload(searchable, 'ocr.pdf'));
    await runPendingJobs(t.app.deps);
    const copy = await copyRow(filed.body._id);
    expect(copy.pageReadings).toEqual(['read', 'read']);
    expect(copy.suggestions?.map((s) => [s.user, s.rotation])).toEqual([
      [pupils[n].id, 0],
      [pupils[n].id, 180],
    ]);
  }, 120_000);

  it('a page turned by /Rotate and cropped (CCITT G4) reads with its turn', async () => {
    const n = COPIER_ENCODINGS.length;
    const doc = await PDFDocument.load(await copierScan(sheets, [{ page: n * PER_PUPIL + 1, noise: 0.1 }], 'g4', { noise: 0.2 }));
    const page = doc.getPage(0);
    const { width, height } = page.getSize();
    page.node.set(PDFName.of('Rotate'), PDFNumber.of(90));
    page.node.set(PDFName.of('CropBox'), PDFArray.withContext(doc.context));
    page.setCropBox(10, 10, width - 20, height - 20);
    const filed = await file(await upload(await doc.save(), 'tourne.pdf'));
    await runPendingJobs(t.app.deps);
    const copy = await copyRow(filed.body._id);
    expect(copy.suggestions).toEqual([{ pageNum: 1, user: pupils[n].id, exercises: [exerciseId], rotation: 270, sheetPage: 1 }]);
  }, 120_000);
});

describe('blank pages and scans sent twice', () => {
  it('a blank back (noisy, grey) is suggested blank and dropped when the copy labels itself', async () => {
    const n = COPIER_ENCODINGS.length + 1;
    const front = await PDFDocument.load(await copierScan(sheets, [{ page: n * PER_PUPIL + 1, noise: 0.1 }], 'dct', { noise: 0.3 }));
    const empty = await PDFDocument.create();
    empty.addPage([595, 842]).drawRectangle({ x: 0, y: 0, width: 595, height: 842, color: rgb(1, 1, 1) });
    const back = await PDFDocument.load(await copierScan(await empty.save(), [{ page: 0, noise: 0.2 }], 'dct', { noise: 0.4, blur: 0.5 }));
    front.addPage((await front.copyPages(back, [0]))[0]);
    const filed = await file(await upload(await front.save(), 'recto-verso.pdf'));
    await runPendingJobs(t.app.deps);
    const copy = await copyRow(filed.body._id);
    expect(copy.pageReadings).toEqual(['read', 'blank']);
    expect(copy.suggestions).toEqual([
      { pageNum: 1, user: pupils[n].id, exercises: [exerciseId], rotation: 0, sheetPage: 1 },
      { pageNum: 2, user: null, exercises: [], rotation: 0 },
    ]);
    expect((await jobOf(filed.body._id)).result).toMatchObject({ read: 1, blank: 1, labeled: true });
    const [answer] = await answersOf(pupils[n].id);
    expect(answer).toBeTruthy();
    // The school's list of scanned copies says the back was left out.
    const list = await inject(t, { method: 'GET', url: `/api/answer/unlabeled/${chapterId}`, headers: teacher.headers });
    expect(list.body.find((c: { _id: string }) => c._id === filed.body._id)).toMatchObject({ labeled: true, droppedBlanks: 1 });
  }, 120_000);

  it('the same file filed twice for a chapter is refused with a French 409 and never sorted twice', async () => {
    const scan = await copierScan(sheets, [{ page: 1 }], 'g4');
    expect((await file(await upload(scan, 'salle-4.pdf'))).status).toBe(201);
    const before = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.chapterId, chapterId));
    const again = await file(await upload(scan, 'salle-4-bis.pdf'));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'Ce fichier a déjà été déposé pour ce chapitre («\u202fsalle-4.pdf\u202f»)\u00a0: il ne sera pas trié une seconde fois.',
    );
    const after = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.chapterId, chapterId));
    expect(after).toHaveLength(before.length);
    // One byte more is another file.
    const changed = new Uint8Array([...scan, 0x0a]);
    expect((await file(await upload(changed, 'salle-5.pdf'))).status).toBe(201);
  }, 120_000);
});
