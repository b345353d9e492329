import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chapters, files, institutions, jobs, unlabeledAnswers } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import { deepNesting, hugeArray, imageBomb, objStmBomb, pageTreeFanOut, xrefLoop, xrefStreamBomb } from './fixtures/pdf-bombs.js';
import { closePdfPool, pdfLimits, warmPdfPool } from '../src/pdf/pdf-pool.js';
import { enqueueDecode } from '../src/sheets/decode-job.js';
import { runPendingJobs } from '../src/sheets/jobs.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * Hostile PDFs (decision 27): refused within seconds with a French message, nothing stored, and
 * the event loop keeps answering /api/health while the file is parsed (in a worker).
 */

const BOMB = 'Ce PDF se décompresse en un volume anormal : il est refusé.';
const TIMEOUT = 'La lecture de ce PDF prend trop de temps : il est refusé.';
const MEMORY = 'Ce PDF demande trop de mémoire pour être lu : il est refusé.';
const UNREADABLE = 'Ce PDF est illisible ou endommagé.';

let t: TestApp;
let chapterId: string;
let schoolId: string;
let teacher: { id: string; headers: Record<string, string> };
const saved = { ...pdfLimits };

beforeAll(async () => {
  // Short caps so that the time and memory refusals are reached in a test's time.
  Object.assign(pdfLimits, { inspectMs: 8000, heapMb: 64 });
  await closePdfPool();
  t = await buildTestApp();
  const db = t.database.db;
  [{ id: schoolId }] = await db.insert(institutions).values({ name: 'Collège Sophie Germain' }).returning();
  [{ id: chapterId }] = await db.insert(chapters).values({ title: 'Coupe papier', offline: true }).returning();
  teacher = await createUser(t, 'teacher', { ...PUPIL_PROFILE, institutionId: schoolId });
  // A first upload starts the worker thread (~1 s, tsx compiling it) and compiles the route's
  // code: the cases below measure parses, not a cold start.
  const doc = await PDFDocument.create();
  doc.addPage();
  expect((await upload(Buffer.from(await doc.save()))).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t.close();
  Object.assign(pdfLimits, saved);
});

function multipart(fields: Record<string, string>, bytes: Buffer) {
  const boundary = '----olympe' + Math.random().toString(16).slice(2);
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return {
    payload: Buffer.concat([
      Buffer.from(
        `${head.join('')}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const upload = (bytes: Buffer) => {
  const { payload, contentType } = multipart({ chapter: chapterId }, bytes);
  return inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...teacher.headers, 'content-type': contentType }, payload });
};

const fileCount = async () => (await t.database.db.select({ id: files.id }).from(files)).length;

/**
 * Runs `work` while /api/health is asked every 20 ms. The worst cycle (answer + 20 ms pause) says
 * how long the event loop was unavailable: a parse on it shows up whole, even between two polls
 * (6 to 18 s for these files before the worker pool).
 */
// 200 ms is the aim and what bench/pdf-bombs measures on the real server; this box runs the test
// suites of several people at a load average near 10 on 2 cores, where the scheduler alone gave
// 100–400 ms stalls: the bound here tells a stalled loop (seconds) from a busy machine.
const HEALTH_BOUND_MS = 500;
async function whilePolling<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; worstHealthMs: number; polls: number }> {
  let done = false;
  let worst = 0;
  let polls = 0;
  const poller = (async () => {
    while (!done) {
      const started = performance.now();
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      polls++;
      await sleep(20);
      worst = Math.max(worst, performance.now() - started - 20);
    }
  })();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  done = true;
  await poller;
  return { result, ms, worstHealthMs: worst, polls };
}

describe('POST /api/pdfs and hostile PDFs', () => {
  it.each([
    ['an object stream inflating to 1 GB (1 MB file)', () => objStmBomb(1024), 413, BOMB],
    ['a cross-reference stream behind ASCIIHex + Flate inflating to 256 MB', () => xrefStreamBomb(256), 413, BOMB],
    // 2^30: past the 8 s cap on any machine (2^26 was read in under 8 s on a quick one, and accepted).
    ['a page tree of 2^30 visits', () => pageTreeFanOut(30), 413, TIMEOUT],
    ['an array of 4 million numbers (8 MB)', () => hugeArray(4_000_000), 413, MEMORY],
    ['an array nested 100,000 deep in the catalog', () => deepNesting(100_000), 400, UNREADABLE],
  ])('%s: refused within seconds, nothing stored, health answered meanwhile', async (_name, make, status, message) => {
    const bytes = make();
    const before = await fileCount();
    const { result: res, ms, worstHealthMs, polls } = await whilePolling(() => upload(bytes));
    expect(polls).toBeGreaterThan(0);
    expect(worstHealthMs, `health took ${Math.round(worstHealthMs)} ms`).toBeLessThan(HEALTH_BOUND_MS);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body).toEqual({ message, code: status === 413 ? 'too_large' : 'bad_request' });
    expect(ms).toBeLessThan(12_000);
    expect(await fileCount()).toBe(before);
  });

  it('a file whose two xref sections point at each other is answered at once, and the pool still serves', async () => {
    const { result: res, ms } = await whilePolling(() => upload(xrefLoop()));
    // pdf-lib reads the file from start to end and never follows /Prev: a readable one-page PDF.
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(3000);
    const doc = await PDFDocument.create();
    doc.addPage();
    expect((await upload(Buffer.from(await doc.save()))).status).toBe(200);
  });

  it('a full queue answers 503 in French rather than piling up', async () => {
    const saved = pdfLimits.maxQueue;
    pdfLimits.maxQueue = 1;
    try {
      // Each takes ~2 s of a thread: the threads are busy, one waits, the others are turned away.
      const slow = pageTreeFanOut(22);
      const answers = await Promise.all(Array.from({ length: pdfLimits.threads + 3 }, () => upload(slow)));
      const busy = answers.filter((a) => a.status === 503);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(pdfLimits.threads);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0].body).toEqual({ message: 'Le serveur lit déjà beaucoup de PDF : réessayez dans une minute.', code: 'unavailable' });
    } finally {
      pdfLimits.maxQueue = saved;
    }
  });
});

describe('the decode job and hostile PDFs', () => {
  /** A scan stored as if it had been accepted (a file from before the check, a changed store). */
  async function fileCopy(bytes: Buffer): Promise<string> {
    const db = t.database.db;
    const fileId = randomUUID();
    await openFileStore(t.app.deps).put(fileId, bytes);
    await db
      .insert(files)
      .values({ id: fileId, ownerId: teacher.id, institutionId: schoolId, originalName: 'scan.pdf', size: bytes.length, pages: 1 });
    const [copy] = await db
      .insert(unlabeledAnswers)
      .values({ chapterId, fileId, institutionId: schoolId, uploadedBy: teacher.id })
      .returning();
    await enqueueDecode(db, copy.id);
    return copy.id;
  }

  const jobOf = async (copyId: string) => (await t.database.db.select().from(jobs)).find((j) => j.payload.unlabeledId === copyId)!;

  it('a bomb ends the job at once: done, not retried, every page left to the sorter', async () => {
    const copyId = await fileCopy(objStmBomb(128));
    const { worstHealthMs } = await whilePolling(() => runPendingJobs(t.app.deps));
    const job = await jobOf(copyId);
    expect(job).toMatchObject({ status: 'done', attempts: 1, result: { pages: 0, labeled: false, refused: BOMB } });
    const [copy] = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, copyId));
    expect(copy).toMatchObject({ suggestions: null, labeledAt: null });
    expect(worstHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(await runPendingJobs(t.app.deps)).toBe(0);
  });

  it('a picture that inflates past its pixel count is no picture: the page goes to the sorter, memory stays flat', async () => {
    const copyId = await fileCopy(imageBomb(1024));
    const started = performance.now();
    await runPendingJobs(t.app.deps);
    expect(performance.now() - started).toBeLessThan(5000);
    // The picture is refused; the page is then rendered by pdftoppm (decision 57), which reads no code in it.
    expect(await jobOf(copyId)).toMatchObject({
      status: 'done',
      attempts: 1,
      result: { pages: 1, read: 0, unreadable: 1, labeled: false },
    });
  });

  it('a reading past its time cap ends the job the same way, and the next reading works', async () => {
    const saved = pdfLimits.readMs;
    pdfLimits.readMs = 1000;
    try {
      const copyId = await fileCopy(pageTreeFanOut(24));
      await runPendingJobs(t.app.deps);
      expect(await jobOf(copyId)).toMatchObject({ status: 'done', attempts: 1, result: { pages: 0, labeled: false, refused: TIMEOUT } });
    } finally {
      pdfLimits.readMs = saved;
    }
    const doc = await PDFDocument.create();
    doc.addPage();
    const next = await fileCopy(Buffer.from(await doc.save()));
    await runPendingJobs(t.app.deps);
    // An empty page: rendered, no ink, suggested blank (decision 57).
    expect(await jobOf(next)).toMatchObject({ status: 'done', result: { pages: 1, read: 0, blank: 1, labeled: false } });
  });
});

describe('the time cap counts the parse, not a thread starting', () => {
  it("on a cold pool, a cap shorter than the threads' start still accepts a small file", async () => {
    const cap = pdfLimits.inspectMs;
    await closePdfPool();
    const started = performance.now();
    await warmPdfPool();
    const coldMs = performance.now() - started;
    await closePdfPool();
    // Half of what starting the threads took here: the first upload used to be refused « prend trop de temps »
    // when the cap ran while the thread compiled its modules (bench/sheets/README.md « Corpus », at load 20).
    pdfLimits.inspectMs = Math.round(coldMs / 2);
    try {
      const doc = await PDFDocument.create();
      doc.addPage();
      const answer = await upload(Buffer.from(await doc.save()));
      expect([answer.status, answer.body.message, pdfLimits.inspectMs]).toEqual([200, undefined, pdfLimits.inspectMs]);
    } finally {
      pdfLimits.inspectMs = cap;
    }
  }, 60_000);
});
