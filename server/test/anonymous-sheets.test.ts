import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq, isNull } from 'drizzle-orm';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, centerRegistrations, centers, chapters, exercises, institutions, unlabeledAnswers } from '../src/db/schema.js';
import { runPendingJobs } from '../src/sheets/jobs.js';
import { parsePgm, type Gray } from '../src/sheets/raster.js';
import { NAME_BAND, SHEET_SIZE } from '../src/sheets/render.js';
import { fakeScan, type Soiling } from './fixtures/fake-scan.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

/**
 * Decision 130: under anonymous correction, the copy a corrector opens of a paper sheet has no name, in its
 * text or in its pixels, and carries no other picture of the page; the scan it came from is no longer a
 * corrector's. The same flow in a chapter with names keeps them. Needs poppler-utils (pdftoppm, pdftotext).
 */
type Headers = Record<string, string>;
const run = promisify(execFile);
let t: TestApp;
let school: string;
let teacher: { id: string; headers: Headers };
let corrector: { id: string; headers: Headers };
let admin: { id: string; headers: Headers };
let pupil: string;
/** Per chapter: its id, its one PDF exercise and its sheets (cover, then 2 answer pages). */
const paper: Record<'anonymous' | 'named', { id: string; exercise: string; sheets: Uint8Array }> = {} as never;

beforeAll(async () => {
  t = await buildTestApp({ env: { JOBS_WORKER: 'off' } });
  const db = t.database.db;
  [{ id: school }] = await db.insert(institutions).values({ name: 'Collège Émilie-du-Châtelet' }).returning();
  teacher = await createUser(t, 'teacher', { institutionId: school });
  corrector = await createUser(t, 'member');
  admin = await createUser(t, 'admin');
  ({ id: pupil } = await createUser(t, 'pupil', { ...PUPIL_PROFILE, firstName: 'Léa', lastName: 'Martin', institutionId: school }));
  for (const kind of ['anonymous', 'named'] as const) {
    const [chapter] = await db
      .insert(chapters)
      .values({
        title: kind === 'anonymous' ? 'Coupe à l’aveugle' : 'Coupe nominative',
        offline: true,
        anonymousGrading: kind === 'anonymous',
      })
      .returning();
    const [exercise] = await db
      .insert(exercises)
      .values({ chapterId: chapter.id, position: 0, title: 'Géométrie', answerFormat: 'pdf' })
      .returning();
    await db.insert(centers).values({ chapterId: chapter.id, institutionId: school, opened: true });
    await db.insert(centerRegistrations).values({ chapterId: chapter.id, userId: pupil, institutionId: school });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sheets/${chapter.id}.pdf?institution=${school}&spare=1`,
      headers: teacher.headers,
    });
    expect(res.statusCode).toBe(200);
    paper[kind] = { id: chapter.id, exercise: exercise.id, sheets: res.rawPayload };
  }
});
afterAll(async () => t.close());

async function withFile<T>(bytes: Uint8Array, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-anon-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), bytes);
    return await use(path.join(dir, 'in.pdf'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const textOf = (pdf: Uint8Array) => withFile(pdf, async (f) => (await run('pdftotext', [f, '-'])).stdout);
/** Page `page` (1-based) in grey at `dpi`, as displayed (its /Rotate applied). */
const grayOf = (pdf: Uint8Array, page: number, dpi: number) =>
  withFile(pdf, async (f) => {
    await run('pdftoppm', ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), f, `${f}-p`]);
    const out = (await import('node:fs')).readdirSync(path.dirname(f)).find((n) => n.endsWith('.pgm'))!;
    return parsePgm(await readFile(path.join(path.dirname(f), out)));
  });
const turnHalf = (g: Gray): Gray => ({ ...g, data: Uint8Array.from(g.data).reverse() });

const DPI = 100;
/**
 * Where a sheet point (points from its top-left corner) lands on a page of the fake scan turned back upright,
 * in pixels at DPI: soilSheets turns the sheet by its quarter turn and skew about the page's centre; the copy
 * undoes the quarter turn (its /Rotate), leaving the skew.
 */
function onUprightScan(x: number, top: number, skew: number): [number, number] {
  const { width: w, height: h } = SHEET_SIZE;
  const a = (-skew * Math.PI) / 180;
  const [dx, dy] = [x - w / 2, h / 2 - top];
  const [X, Y] = [Math.cos(a) * dx - Math.sin(a) * dy + w / 2, Math.sin(a) * dx + Math.cos(a) * dy + h / 2];
  return [Math.round((X * DPI) / 72), Math.round(((h - Y) * DPI) / 72)];
}

/** Grey levels of the sheet's rectangle [left, right] × [top, bottom] (points), as it lies on the upright scan. */
function region(g: Gray, box: { left: number; top: number; right: number; bottom: number }, skew: number): number[] {
  const out: number[] = [];
  for (let top = box.top; top <= box.bottom; top += 0.7) {
    for (let x = box.left; x <= box.right; x += 0.7) {
      const [px, py] = onUprightScan(x, top, skew);
      out.push(g.data[py * g.width + px]);
    }
  }
  return out;
}
const dark = (values: number[]) => values.filter((v) => v < 128).length;
/** The name band inside its frame (2 pt in), and a stretch of the answer frame crossed by the scribbles. */
const INSIDE_BAND = { left: NAME_BAND.left + 2, top: NAME_BAND.top + 2, right: NAME_BAND.right - 2, bottom: NAME_BAND.bottom - 2 };
const ANSWER_AREA = { left: 70, top: 180, right: 520, bottom: 700 };

/** Uploads a scan as the centre, files it for the chapter, runs the reading job (which sorts a complete copy). */
async function scanAndSort(kind: 'anonymous' | 'named', scan: Uint8Array, name: string): Promise<{ scanFile: string; copy: Uint8Array }> {
  const { id: chapterId, exercise } = paper[kind];
  const { payload, headers: form } = multipart({ chapter: chapterId }, { name, bytes: scan });
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
  const [row] = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, filed.body._id));
  expect(row.labeledAt, 'the copy sorts itself').not.toBeNull();
  const [answer] = await t.database.db
    .select()
    .from(answers)
    .where(and(eq(answers.userId, pupil), eq(answers.exerciseId, exercise), isNull(answers.withdrawnAt)));
  // What the grading viewer asks for: the answer's PDF, as the corrector.
  const res = await t.app.inject({ method: 'GET', url: `/api/${answer.answer}`, headers: corrector.headers });
  expect(res.statusCode).toBe(200);
  await t.database.db.update(answers).set({ withdrawnAt: new Date() }).where(eq(answers.id, answer.id));
  return { scanFile: row.fileId, copy: res.rawPayload };
}

/** The encoded bytes of every picture of a PDF. */
async function picturesOf(pdf: Uint8Array): Promise<Array<{ bytes: Uint8Array }>> {
  const doc = await PDFDocument.load(pdf);
  return doc.context
    .enumerateIndirectObjects()
    .flatMap(([, o]) => (o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image') ? [o] : []))
    .map((o) => ({ bytes: o.contents }));
}

// Both answer pages, the first a little crooked, the second upside down and crooked the other way.
const PAGES: Soiling[] = [
  { page: 1, turn: 0, skew: 1.5, scribbles: true, noise: 0.1 },
  { page: 2, turn: 180, skew: -2, scribbles: true, noise: 0.1 },
];

describe('anonymous correction of paper copies (decision 130)', () => {
  it('prints the name in a band labelled as masked, on an anonymous chapter’s sheets only', async () => {
    const anonymous = await textOf(paper.anonymous.sheets);
    expect(anonymous).toContain('MARTIN Léa');
    expect(anonymous).toContain('Nom — zone masquée à la correction');
    expect(await textOf(paper.named.sheets)).not.toContain('zone masquée');
  });

  it('a scanned copy reaches the corrector with the name band white and the answers as scanned, as one picture a page', async () => {
    const scan = await fakeScan(paper.anonymous.sheets, PAGES);
    const { copy, scanFile } = await scanAndSort('anonymous', scan, 'salle-a.pdf');
    expect(await textOf(copy)).not.toMatch(/MARTIN|Léa/i);
    for (const [i, p] of PAGES.entries()) {
      const masked = await grayOf(copy, i + 1, DPI);
      let source = await grayOf(scan, i + 1, DPI);
      if (p.turn === 180) source = turnHalf(source);
      // The name was there on the scan, and is gone from the copy.
      expect(dark(region(source, INSIDE_BAND, p.skew!))).toBeGreaterThan(30);
      expect(dark(region(masked, INSIDE_BAND, p.skew!))).toBe(0);
      // The answer frame, scribbles and all, is the scan's, up to a JPEG's error.
      const [a, b] = [region(source, ANSWER_AREA, p.skew!), region(masked, ANSWER_AREA, p.skew!)];
      expect(dark(a)).toBeGreaterThan(500);
      expect(Math.abs(dark(a) - dark(b))).toBeLessThan(dark(a) * 0.1);
      expect(a.reduce((s, v, k) => s + Math.abs(v - b[k]), 0) / a.length).toBeLessThan(10);
    }
    // One picture a page, the masked one: the scan's own pictures are not in the file.
    const pictures = await picturesOf(copy);
    expect(pictures).toHaveLength(PAGES.length);
    // (64 bytes from the middle of each scanned JPEG's coded data: its headers are any JPEG's.)
    for (const { bytes } of await picturesOf(scan))
      expect(Buffer.from(copy).indexOf(Buffer.from(bytes.subarray(bytes.length >> 1, (bytes.length >> 1) + 64)))).toBe(-1);
    const doc = await PDFDocument.load(copy);
    for (const page of doc.getPages()) {
      const xobjects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
      expect(xobjects?.keys()).toHaveLength(1);
      expect(page.node.Annots()?.size() ?? 0).toBe(0);
    }

    // The scan itself shows the name: sorted, it is no longer a corrector's, still the centre's and the admins'.
    const url = `/api/pdfs/${scanFile}.pdf`;
    expect((await t.app.inject({ method: 'GET', url, headers: corrector.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `${url}/link`, headers: corrector.headers })).statusCode).toBe(403);
    for (const caller of [admin, teacher])
      expect((await t.app.inject({ method: 'GET', url, headers: caller.headers })).statusCode).toBe(200);
  }, 180_000);

  it('a copy sent as a PDF with text (printed, not scanned) loses the name from its text too', async () => {
    const doc = await PDFDocument.load(paper.anonymous.sheets);
    const printed = await PDFDocument.create();
    for (const page of await printed.copyPages(doc, [1, 2])) printed.addPage(page);
    const bytes = await printed.save();
    expect(await textOf(bytes)).toContain('MARTIN');
    const { copy } = await scanAndSort('anonymous', bytes, 'imprime.pdf');
    expect(await textOf(copy)).not.toMatch(/MARTIN|Léa/i);
    expect(dark(region(await grayOf(copy, 1, DPI), INSIDE_BAND, 0))).toBe(0);
  }, 120_000);

  it('the same flow in a chapter with names keeps the name, and anonymous correction cannot be switched on once sorted', async () => {
    const scan = await fakeScan(paper.named.sheets, PAGES);
    const { copy, scanFile } = await scanAndSort('named', scan, 'salle-b.pdf');
    const page = await grayOf(copy, 1, DPI);
    expect(dark(region(page, INSIDE_BAND, PAGES[0].skew!))).toBeGreaterThan(30);
    expect((await t.app.inject({ method: 'GET', url: `/api/pdfs/${scanFile}.pdf`, headers: corrector.headers })).statusCode).toBe(200);

    // A sorted copy (a live answer) would keep the name: the switch is refused until it is sent back to sorting.
    const [{ id: answerId }] = await t.database.db
      .update(answers)
      .set({ withdrawnAt: null })
      .where(and(eq(answers.userId, pupil), eq(answers.exerciseId, paper.named.exercise)))
      .returning({ id: answers.id });
    const patch = () =>
      inject(t, { method: 'PATCH', url: `/api/chapter/${paper.named.id}`, headers: admin.headers, payload: { anonymousGrading: true } });
    const refused = await patch();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('Remettez-les au triage');
    expect((await t.database.db.select().from(chapters).where(eq(chapters.id, paper.named.id)))[0].anonymousGrading).toBe(false);
    const relabel = await inject(t, { method: 'POST', url: '/api/answer/relabel', headers: admin.headers, payload: { answerId } });
    expect(relabel.status).toBe(200);
    expect((await patch()).status).toBe(200);
  }, 180_000);
});
