import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessGroups,
  answers,
  centerRegistrations,
  centers,
  chapters,
  exercises,
  files,
  institutions,
  jobs,
  unlabeledAnswers,
} from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import { PDF_PASSWORD_MESSAGE } from '../src/pdf/pdf-pool.js';
import { parsePgm } from '../src/sheets/raster.js';
import { runPendingJobs } from '../src/sheets/jobs.js';
import { copierScan } from './fixtures/copier-scan.js';
import { expectSamePages } from './fixtures/same-pages.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

/**
 * Decisions 105–107: PDFs as they really come. Protected files made by qpdf (owner password only, AES
 * 256, RC4 128, AES 128 with object streams) are read and stored like any other, as a scan and as a
 * pupil's copy, and the pupils' split copies carry the scan's ink (checked in pdftoppm's pixels); a
 * file that needs a password to open is refused in French. Damaged files of pdf.js's test corpus
 * (fixtures/corpus/README.md) are accepted when poppler draws them and their copies stay sortable.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
const run = promisify(execFile);
type Headers = Record<string, string>;
let t: TestApp;
let dir: string;
let paperId: string;
let paperExercise: string;
let onlineExercise: string;
let teacher: { id: string; headers: Headers };
let pupil: { id: string; headers: Headers };
let admin: { id: string; headers: Headers };
let scan: Uint8Array;

beforeAll(async () => {
  t = await buildTestApp();
  dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-protected-'));
  const db = t.database.db;
  const [school] = await db.insert(institutions).values({ name: 'Collège Marie-Sophie Germain' }).returning();
  [{ id: paperId }] = await db.insert(chapters).values({ title: 'Coupe papier', offline: true }).returning();
  [{ id: paperExercise }] = await db
    .insert(exercises)
    .values({ chapterId: paperId, position: 0, title: 'Géométrie', answerFormat: 'pdf' })
    .returning();
  const [online] = await db.insert(chapters).values({ title: 'Tour en ligne' }).returning();
  await db.insert(accessGroups).values({ chapterId: online.id, position: 0 });
  [{ id: onlineExercise }] = await db
    .insert(exercises)
    .values({ chapterId: online.id, position: 0, title: 'Preuve', answerFormat: 'pdf' })
    .returning();
  await db.insert(centers).values({ chapterId: paperId, institutionId: school.id, opened: true });
  teacher = await createUser(t, 'teacher', { institutionId: school.id });
  pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, institutionId: school.id });
  admin = await createUser(t, 'admin');
  await db.insert(centerRegistrations).values({ chapterId: paperId, userId: pupil.id, institutionId: school.id });
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/sheets/${paperId}.pdf?institution=${school.id}&spare=0`,
    headers: teacher.headers,
  });
  expect(res.statusCode).toBe(200);
  // The pupil's answer page, printed, scanned by a copier in « photo » mode (greyscale JPEG).
  scan = await copierScan(res.rawPayload, [{ page: 1, noise: 0.1 }], 'dct', { noise: 0.2 });
}, 120_000);
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

/** `bytes` encrypted by qpdf with no password to open (`user` empty) or one. */
const encrypt = (bytes: Uint8Array, user: string, bits: string, ...extra: string[]) => {
  const input = path.join(dir, `in-${Math.random().toString(16).slice(2)}.pdf`);
  const output = `${input}.out.pdf`;
  return writeFile(input, bytes)
    .then(() =>
      run('qpdf', [
        '--allow-weak-crypto',
        ...extra.filter((e) => e.startsWith('--object')),
        '--encrypt',
        user,
        'proprietaire',
        bits,
        ...extra.filter((e) => !e.startsWith('--object')),
        '--',
        input,
        output,
      ]),
    )
    .then(() => readFile(output));
};

/** Share of a PDF's first page that is ink, as pdftoppm draws it (0: a blank page). */
async function inkOf(bytes: Uint8Array): Promise<number> {
  const file = path.join(dir, `ink-${Math.random().toString(16).slice(2)}.pdf`);
  await writeFile(file, bytes);
  const { stdout } = await run('pdftoppm', ['-gray', '-r', '30', '-f', '1', '-l', '1', file], { encoding: 'buffer', maxBuffer: 16 << 20 });
  const gray = parsePgm(stdout);
  let dark = 0;
  for (const v of gray.data) if (v < 128) dark++;
  return dark / gray.data.length;
}

async function upload(headers: Headers, fields: Record<string, string>, bytes: Uint8Array, name = 'copie.pdf') {
  const body = multipart(fields, { name, bytes: Buffer.from(bytes) });
  return inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...headers, ...body.headers }, payload: body.payload });
}

const stored = async (answerPath: string) => (await openFileStore(t.app.deps).get(answerPath.slice('pdfs/'.length, -'.pdf'.length)))!;
const fileCount = async () => (await t.database.db.select().from(files)).length;

/** The pupil's latest answer to the paper exercise. */
const latestAnswer = async (userId: string) =>
  (
    await t.database.db
      .select()
      .from(answers)
      .where(and(eq(answers.userId, userId), eq(answers.exerciseId, paperExercise)))
      .orderBy(answers.createdAt)
  ).at(-1)!;

describe('owner-password PDFs (decision 105)', () => {
  const variants: Array<[string, string[]]> = [
    ['AES 256', ['256']],
    ['RC4 128', ['128', '--use-aes=n']],
    ['AES 128 with object streams', ['128', '--use-aes=y', '--object-streams=generate']],
  ];
  for (const [name, [bits, ...extra]] of variants) {
    it(`${name}: a scan is read, labels itself, and the pupil's copy carries the ink`, async () => {
      const locked = await encrypt(scan, '', bits, ...extra);
      const up = await upload(teacher.headers, { chapter: paperId }, locked, `scan-${bits}.pdf`);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const kept = await stored(up.body.path);
      expect(kept.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(kept.includes('/Encrypt')).toBe(false);

      const filed = await inject(t, {
        method: 'POST',
        url: `/api/answer/unlabeled/${paperId}`,
        headers: teacher.headers,
        payload: { answer: up.body.path },
      });
      expect(filed.status).toBe(201);
      await runPendingJobs(t.app.deps);
      const [copy] = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, filed.body._id));
      expect(copy.pageReadings).toEqual(['read']);
      expect(copy.suggestions?.[0]).toMatchObject({ pageNum: 1, user: pupil.id, exercises: [paperExercise] });
      const [job] = (await t.database.db.select().from(jobs)).filter((j) => j.payload.unlabeledId === filed.body._id);
      expect(job.result).toMatchObject({ labeled: true });

      const answer = await latestAnswer(pupil.id);
      const copyPdf = await stored(answer.answer);
      // The split copy as drawn: the scan's ink, not a white page.
      const ink = await inkOf(scan);
      expect(ink).toBeGreaterThan(0.003);
      expect(Math.abs((await inkOf(copyPdf)) - ink)).toBeLessThan(ink / 10);
    }, 120_000);

    it(`${name}: a pupil's copy is accepted (POST /pdfs) and stored readable`, async () => {
      const locked = await encrypt(scan, '', bits, ...extra);
      const up = await upload(pupil.headers, { exercise: onlineExercise }, locked);
      expect(up.status, JSON.stringify(up.body)).toBe(200);
      const kept = await stored(up.body.path);
      expect(kept.includes('/Encrypt')).toBe(false);
      expect(await inkOf(kept)).toBeCloseTo(await inkOf(scan), 3);
    }, 60_000);
  }

  it('a PDF that needs a password to open is refused in French, as a copy and as a scan, and nothing is stored', async () => {
    const locked = await encrypt(scan, 'secret', '256');
    const before = await fileCount();
    for (const [headers, fields] of [
      [pupil.headers, { exercise: onlineExercise }],
      [teacher.headers, { chapter: paperId }],
    ] as const) {
      const up = await upload(headers, fields, locked);
      expect(up.status).toBe(400);
      expect(up.body).toEqual({ message: PDF_PASSWORD_MESSAGE, code: 'bad_request' });
    }
    expect(PDF_PASSWORD_MESSAGE).toBe('Ce PDF est protégé par un mot de passe : enregistrez-le sans mot de passe, puis renvoyez-le.');
    expect(await fileCount()).toBe(before);
  }, 60_000);
});

const corpus = (name: string) => readFile(path.join(import.meta.dirname, 'fixtures/corpus', name));

describe('damaged PDFs (decisions 106, 107)', () => {
  it('junk before %PDF- is accepted and stored from its header', async () => {
    const junk = Buffer.concat([Buffer.from('From: copieur@college.test\r\n\r\n'), Buffer.from(scan)]);
    const up = await upload(pupil.headers, { exercise: onlineExercise }, junk);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const kept = await stored(up.body.path);
    expect(kept.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await inkOf(kept)).toBeCloseTo(await inkOf(scan), 3);
  }, 60_000);

  it('a PDF whose attachments alone are encrypted opens without a password: accepted without its attachment (decisions 115, 131)', async () => {
    const bytes = await corpus('encrypted-attachment.pdf');
    const up = await upload(pupil.headers, { exercise: onlineExercise }, bytes);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const kept = await stored(up.body.path);
    expect(bytes.includes('/EmbeddedFiles')).toBe(true);
    expect(kept.includes('/EmbeddedFiles') || kept.includes('/Encrypt')).toBe(false);
    expect(await inkOf(kept)).toBeCloseTo(await inkOf(bytes), 3);
    // As a scan: read, then split into a copy that draws like the file.
    const scanUp = await upload(teacher.headers, { chapter: paperId }, bytes, 'piece-jointe-chiffree.pdf');
    expect(scanUp.status, JSON.stringify(scanUp.body)).toBe(200);
    const filed = await inject(t, {
      method: 'POST',
      url: `/api/answer/unlabeled/${paperId}`,
      headers: teacher.headers,
      payload: { answer: scanUp.body.path },
    });
    await runPendingJobs(t.app.deps);
    const labelled = await inject(t, {
      method: 'POST',
      url: `/api/answer/label/${filed.body._id}`,
      headers: admin.headers,
      payload: [{ pageNum: 1, user: pupil.id, exercises: [paperExercise], rotation: 0 }],
    });
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
    const copy = await stored((await latestAnswer(pupil.id)).answer);
    expect(copy.includes('/Encrypt')).toBe(false);
    expect(await inkOf(copy)).toBeGreaterThan(0);
    expect(await inkOf(copy)).toBeCloseTo(await inkOf(bytes), 3);
  }, 60_000);

  it('a PDF body whose header is lost (pdf.js bug1606566) is rebuilt and stored with its header (decision 112)', async () => {
    const headless = await corpus('bug1606566.pdf');
    expect(headless.includes('%PDF-')).toBe(false);
    const up = await upload(pupil.headers, { exercise: onlineExercise }, headless);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const kept = await stored(up.body.path);
    expect(kept.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await inkOf(kept)).toBeCloseTo(await inkOf(headless), 3);
    // A text that only mentions an object is no PDF: a clear refusal, nothing stored.
    const before = await fileCount();
    const text = await upload(pupil.headers, { exercise: onlineExercise }, Buffer.from('Réponse :\n1 0 obj est ma formule\n'));
    expect([text.status, text.body.message]).toEqual([400, 'Ce PDF est illisible ou endommagé.']);
    expect(await fileCount()).toBe(before);
  }, 60_000);

  it('a file no renderer opens is refused as unreadable', async () => {
    const up = await upload(pupil.headers, { exercise: onlineExercise }, Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n'));
    expect(up.status).toBe(400);
    expect(up.body.message).toBe('Ce PDF est illisible ou endommagé.');
  }, 60_000);

  /** Uploads a corpus file as a scan, lets the job read it, sorts every page to the pupil: the pupil's copy. */
  async function sortWhole(name: string): Promise<{ bytes: Buffer; pages: number; copy: Buffer }> {
    const bytes = await corpus(name);
    const up = await upload(teacher.headers, { chapter: paperId }, bytes, name);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const filed = await inject(t, {
      method: 'POST',
      url: `/api/answer/unlabeled/${paperId}`,
      headers: teacher.headers,
      payload: { answer: up.body.path },
    });
    expect(filed.status).toBe(201);
    await runPendingJobs(t.app.deps);
    const [job] = (await t.database.db.select().from(jobs)).filter((j) => j.payload.unlabeledId === filed.body._id);
    expect(job.status, String(job.error)).toBe('done');
    const [copy] = await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, filed.body._id));
    const pages = copy.pageReadings!.length;
    expect(pages).toBeGreaterThan(0);
    const entries = Array.from({ length: pages }, (_, p) => ({ pageNum: p + 1, user: pupil.id, exercises: [paperExercise], rotation: 0 }));
    const labelled = await inject(t, {
      method: 'POST',
      url: `/api/answer/label/${filed.body._id}`,
      headers: admin.headers,
      payload: entries,
    });
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);
    return { bytes, pages, copy: await stored((await latestAnswer(pupil.id)).answer) };
  }
  const allPages = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  const accepted = [
    'Pages-tree-refs.pdf',
    'PDFBOX-4352-0.pdf',
    'poppler-742-0-fuzzed.pdf',
    'poppler-937-0-fuzzed.pdf',
    'pr6531_2.pdf',
    'parent-not-a-node.pdf',
  ];
  for (const name of accepted) {
    it(`${name}: accepted as a scan, read by the job, labelled (split) without a 5xx, the copy as drawn by poppler`, async () => {
      const { bytes, pages, copy } = await sortWhole(name);
      // The pupil's copy draws like the file sent (poppler on both), page by page.
      expect(await inkOf(copy)).toBeCloseTo(await inkOf(bytes), 2);
      await expectSamePages(bytes, allPages(pages), copy);
    }, 120_000);
  }

  // Decision 142: files that pdf-lib opens without an error but not as they are (an AES-256 file whose user
  // password is empty; a dictionary with a key that is not a name) are sorted into their real pages, not blank ones.
  for (const name of ['issue7665.pdf', 'issue11549_reduced.pdf']) {
    it(`${name}: sorted into its real pages`, async () => {
      const { bytes, pages, copy } = await sortWhole(name);
      await expectSamePages(bytes, allPages(pages), copy);
    }, 120_000);
  }

  it('a file that needs a password, and one no renderer opens, are refused with their reason in French', async () => {
    const locked = await upload(pupil.headers, { exercise: onlineExercise }, await corpus('issue6010_1.pdf'));
    expect([locked.status, locked.body.message]).toEqual([400, PDF_PASSWORD_MESSAGE]);
    const broken = await upload(teacher.headers, { chapter: paperId }, await corpus('poppler-85140-0.pdf'));
    expect([broken.status, broken.body.message]).toEqual([400, 'Ce PDF est illisible ou endommagé.']);
  }, 60_000);
});
