import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { PDFDocument, PDFName, PDFRawStream, rgb, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageLabel } from '@olympe/contract';
import { answers, centerRegistrations, centers, chapters, exercises, institutions, jobs, unlabeledAnswers } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import type { FileStore } from '../src/files/store.js';
import { runPendingJobs } from '../src/sheets/jobs.js';
import { copierScan } from './fixtures/copier-scan.js';
import { drawPages, expectSamePages } from './fixtures/same-pages.js';
import type { Soiling } from './fixtures/fake-scan.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

/**
 * Stacks as they come off a copier's feeder (decisions 108–110), made with the real tools
 * (copier-scan.ts: pdftoppm, ImageMagick, img2pdf) and uploaded through the API: a shuffled pile,
 * a duplex pile with blank backs, pen strokes across the codes. No page may go to a wrong pupil.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
type Headers = Record<string, string>;
let t: TestApp;
let store: FileStore;
let chapterId: string;
let exerciseId: string;
let teacher: { id: string; headers: Headers };
let member: { id: string; headers: Headers };
/** In the sheets' order (by last name). */
let pupils: Array<{ id: string; lastName: string }>;
/** Centre sheets, 2 spare pages: per pupil a cover, then pages 1–3 of the one PDF exercise. */
let sheets: Uint8Array;
const PER_PUPIL = 4;
const PUPILS = 6;
/** Index in `sheets` of a pupil's cover (k = 0) or answer page k (1–3). */
const sheetPage = (pupil: number, k: number) => pupil * PER_PUPIL + k;

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  store = openFileStore({ config: t.config, db });
  const [school] = await db.insert(institutions).values({ name: 'Lycée Évariste-Galois' }).returning();
  [{ id: chapterId }] = await db.insert(chapters).values({ title: 'Coupe papier', offline: true }).returning();
  [{ id: exerciseId }] = await db
    .insert(exercises)
    .values({ chapterId, position: 0, title: 'Combinatoire', answerFormat: 'pdf' })
    .returning();
  await db.insert(centers).values({ chapterId, institutionId: school.id, opened: true });
  teacher = await createUser(t, 'teacher', { institutionId: school.id });
  member = await createUser(t, 'member');
  pupils = [];
  for (let i = 0; i < PUPILS; i++) {
    const lastName = `Pile-${String.fromCharCode(65 + i)}`;
    const p = await createUser(t, 'pupil', { ...PUPIL_PROFILE, lastName, institutionId: school.id });
    pupils.push({ id: p.id, lastName });
    await db.insert(centerRegistrations).values({ chapterId, userId: p.id, institutionId: school.id });
  }
  pupils.sort((a, b) => a.lastName.localeCompare(b.lastName));
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/sheets/${chapterId}.pdf?institution=${school.id}&spare=2`,
    headers: teacher.headers,
  });
  expect(res.statusCode).toBe(200);
  sheets = res.rawPayload;
});
afterAll(async () => t.close());

/** Uploads and files a scan, then runs the decode job; the copy's id. */
async function fileScan(bytes: Uint8Array, name: string): Promise<string> {
  const { payload, headers: form } = multipart({ chapter: chapterId }, { name, bytes });
  const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...teacher.headers, ...form }, payload });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const filed = await inject(t, {
    method: 'POST',
    url: `/api/answer/unlabeled/${chapterId}`,
    headers: teacher.headers,
    payload: { answer: up.body.path },
  });
  expect(filed.status).toBe(201);
  await runPendingJobs(t.app.deps);
  return filed.body._id as string;
}

const copyRow = async (id: string) => (await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, id)))[0];
const jobOf = async (id: string) => (await t.database.db.select().from(jobs)).find((j) => j.payload.unlabeledId === id)!;
const currentAnswer = async (userId: string) =>
  (
    await t.database.db
      .select()
      .from(answers)
      .where(and(eq(answers.userId, userId), eq(answers.exerciseId, exerciseId), isNull(answers.withdrawnAt)))
  ).sort((a, b) => Number(b.seq) - Number(a.seq))[0];

/** Every answer row of a pupil, withdrawn ones included. */
const answerCount = async (userId: string) => (await t.database.db.select().from(answers).where(eq(answers.userId, userId))).length;

/** A fingerprint of each page's scanned picture: pages of a split copy are told apart by them. */
async function pictures(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
    const [ref] = xobjects && 'values' in xobjects ? (xobjects as unknown as { values(): unknown[] }).values() : [];
    const stream = doc.context.lookup(ref as never);
    if (!(stream instanceof PDFRawStream)) throw new Error('a scanned page without its picture');
    return createHash('sha256').update(stream.contents).digest('hex');
  });
}

/** The scan pages (0-based) that make up a pupil's current answer, in its order. */
async function pagesOfAnswer(userId: string, scanPictures: string[]): Promise<number[]> {
  const answer = await currentAnswer(userId);
  expect(answer, 'the pupil has a sorted copy').toBeTruthy();
  const bytes = await store.get(answer.fileId!);
  return (await pictures(bytes!)).map((p) => scanPictures.indexOf(p));
}

/** A fixed shuffle (mulberry32), the same on every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), a | 1);
    r ^= r + Math.imul(r ^ (r >>> 7), r | 61);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * What the pile's pixels say (pages turned, backs blank, codes struck) does not depend on the database, and these
 * cases cost 10 to 30 s of scanning and reading each: the replay on PostgreSQL (TEST_DATABASE_URL) runs the two
 * that write what the others write too (a sorted copy, a copy left unlabelled), as the copier matrix does
 * (scans.test.ts, decision 80); the embedded run, in every `npm test`, runs them all.
 */
const pixelsOnly = it.skipIf(Boolean(process.env.TEST_DATABASE_URL));

describe('shuffled stacks: each copy in the order printed on its sheets (decision 108)', () => {
  pixelsOnly(
    'a dropped pile of 6 pupils’ covers and answer pages, one page in three fed upside down, labels every copy in page order',
    async () => {
      const order = shuffled(
        Array.from({ length: PUPILS * PER_PUPIL }, (_, i) => i),
        2026,
      );
      const pages: Soiling[] = order.map((page, i) => ({ page, turn: i % 3 === 1 ? 180 : 0, skew: i % 2 ? 1 : -1, noise: 0.1 }));
      const scan = await copierScan(sheets, pages, 'dct', { noise: 0.3, blur: 0.4, seed: 7 });
      const copyId = await fileScan(scan, 'pile-tombee.pdf');
      expect((await jobOf(copyId)).result, JSON.stringify((await jobOf(copyId)).result)).toMatchObject({
        pages: 24,
        read: 24,
        labeled: true,
      });
      const scanPictures = await pictures(scan);
      const scanDrawn = await drawPages(scan);
      let inOrder = 0;
      for (const [n, pupil] of pupils.entries()) {
        const expected = [1, 2, 3].map((k) => order.indexOf(sheetPage(n, k)));
        const got = await pagesOfAnswer(pupil.id, scanPictures);
        expect(got, pupil.lastName).toEqual(expected);
        if (got.join() === expected.join()) inOrder++;
        // Drawn, each sorted page is its scan page turned upright, not a blank one.
        const sorted = (await store.get((await currentAnswer(pupil.id)).fileId!))!;
        await expectSamePages(
          scanDrawn,
          expected.map((i) => ({ page: i + 1, rotation: (360 - (pages[i].turn ?? 0)) % 360 })),
          sorted,
        );
      }
      expect(inOrder).toBe(PUPILS);
    },
    240_000,
  );

  it('a pile fed from its last page, with a sheet without code slipped between two pages: the sheet stays between them', async () => {
    // The first pupil's pages 3, 2, a plain sheet of rough work, 1: the pile upside down in the feeder.
    const doc = await PDFDocument.load(sheets);
    const rough = doc.addPage([595.28, 841.89]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let y = 760; y > 120; y -= 40)
      rough.drawText('Brouillon : si n = 2k + 1 alors n² = 4k(k + 1) + 1, donc…', { x: 50, y, size: 13, font });
    const withRough = await doc.save();
    const roughIndex = doc.getPageCount() - 1;
    const order = [sheetPage(0, 3), sheetPage(0, 2), roughIndex, sheetPage(0, 1)];
    const scan = await copierScan(
      withRough,
      order.map((page) => ({ page })),
      'dct',
      { noise: 0.2, seed: 11 },
    );
    const copyId = await fileScan(scan, 'pile-retournee.pdf');
    const copy = await copyRow(copyId);
    expect(copy.pageReadings).toEqual(['read', 'read', 'unread', 'read']);

    // The sorter confirms the three read pages and gives the rough sheet to the same pupil.
    const selected = await inject(t, { method: 'GET', url: `/api/answer/unlabeled/select/${chapterId}`, headers: member.headers });
    expect(selected.body.copy._id).toBe(copyId);
    const suggestions = selected.body.copy.suggestions as PageLabel[];
    const body = [...suggestions, { pageNum: 3, user: pupils[0].id, exercises: [exerciseId], rotation: 0 }];
    const labelled = await inject(t, { method: 'POST', url: `/api/answer/label/${copyId}`, headers: member.headers, payload: body });
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
    // Printed order 1, 2, 3; the rough sheet, scanned between 2 and 1, stays between them.
    expect(labelled.body.answers[0].pages).toEqual([4, 3, 2, 1]);
    expect(await pagesOfAnswer(pupils[0].id, await pictures(scan))).toEqual([3, 2, 1, 0]);
  }, 240_000);
});

describe('duplex stacks: blank backs dropped and counted (decision 109)', () => {
  pixelsOnly(
    'every front followed by its back, the front showing through: the backs are blank, dropped, counted, and the copies label themselves in order',
    async () => {
      const fronts = shuffled(
        [1, 2, 3].flatMap((k) => [sheetPage(1, k), sheetPage(2, k)]),
        99,
      );
      const pages: Soiling[] = fronts.flatMap((page) => [{ page }, { page, back: true }]);
      const scan = await copierScan(sheets, pages, 'dct', { noise: 0.3, blur: 0.4, seed: 3 });
      const copyId = await fileScan(scan, 'recto-verso.pdf');
      const copy = await copyRow(copyId);
      expect(copy.pageReadings).toEqual(fronts.flatMap(() => ['read', 'blank']));
      const job = await jobOf(copyId);
      expect(job.result).toMatchObject({ pages: 12, read: 6, blank: 6, labeled: true });
      expect((job.result as { message?: string }).message).toBe('Copie triée : 2 copies enregistrées, 6 pages blanches écartées.');
      const scanPictures = await pictures(scan);
      for (const n of [1, 2]) {
        expect(await pagesOfAnswer(pupils[n].id, scanPictures)).toEqual([1, 2, 3].map((k) => 2 * fronts.indexOf(sheetPage(n, k))));
      }
    },
    240_000,
  );
});

describe('a pen stroke across a code (decision 110)', () => {
  pixelsOnly(
    'one code struck on each page, either corner, turned: every page labels itself; both codes struck: unread, never wrong',
    async () => {
      const pages: Soiling[] = [
        { page: sheetPage(3, 1), struck: [0] },
        { page: sheetPage(3, 2), struck: [1], turn: 90, skew: 1 },
        { page: sheetPage(3, 3), struck: [0], turn: 180, skew: -1.5 },
      ];
      const scan = await copierScan(sheets, pages, 'g4', { noise: 0.3, blur: 0.4, seed: 5 });
      const copyId = await fileScan(scan, 'stylo.pdf');
      expect((await copyRow(copyId)).pageReadings).toEqual(['read', 'read', 'read']);
      expect((await jobOf(copyId)).result).toMatchObject({ read: 3, labeled: true });
      expect((await copyRow(copyId)).suggestions?.map((s) => [s.user, s.rotation])).toEqual([
        [pupils[3].id, 0],
        [pupils[3].id, 270],
        [pupils[3].id, 180],
      ]);

      const both = await copierScan(
        sheets,
        [{ page: sheetPage(4, 1), struck: [0, 1] }, { page: sheetPage(4, 2), struck: [0, 1], turn: 270 }, { page: sheetPage(4, 3) }],
        'dct',
        {
          noise: 0.3,
          seed: 6,
        },
      );
      const before = await answerCount(pupils[4].id);
      const bothId = await fileScan(both, 'stylo-deux-codes.pdf');
      const copy = await copyRow(bothId);
      expect(copy.pageReadings).toEqual(['unread', 'unread', 'read']);
      expect(copy.suggestions?.map((s) => [s.pageNum, s.user])).toEqual([[3, pupils[4].id]]);
      expect(copy.labeledAt).toBeNull();
      expect(await answerCount(pupils[4].id)).toBe(before);
    },
    240_000,
  );

  it('two genuine codes that disagree on one page (another pupil’s code stuck over a corner) leave the page unread', async () => {
    // The bottom-left code of pupil 5's page 1 replaced by the one of pupil 0's page 1.
    const doc = await PDFDocument.load(sheets);
    const [theirs] = await doc.embedPages([doc.getPage(sheetPage(0, 1))], [{ left: 36, bottom: 36, right: 121, top: 121 }]);
    const page = doc.getPage(sheetPage(5, 1));
    page.drawRectangle({ x: 30, y: 30, width: 97, height: 97, color: rgb(1, 1, 1) });
    page.drawPage(theirs, { x: 36, y: 36 });
    const scan = await copierScan(await doc.save(), [{ page: sheetPage(5, 1) }, { page: sheetPage(5, 2) }], 'dct', { noise: 0.2, seed: 8 });
    const before = await Promise.all([0, 5].map((n) => answerCount(pupils[n].id)));
    const copyId = await fileScan(scan, 'code-colle.pdf');
    const copy = await copyRow(copyId);
    expect(copy.pageReadings).toEqual(['unread', 'read']);
    expect(copy.labeledAt).toBeNull();
    expect(await Promise.all([0, 5].map((n) => answerCount(pupils[n].id)))).toEqual(before);
  }, 240_000);
});
