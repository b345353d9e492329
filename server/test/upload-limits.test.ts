import { eq, inArray, sql } from 'drizzle-orm';
import { PDFDocument } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, chapters, exercises, files, institutions, unlabeledAnswers, uploadSlots } from '../src/db/schema.js';
import { quotaMessage, TOO_MANY_UPLOADS_MESSAGE, UPLOAD_RATE_MESSAGE } from '../src/files/quota.js';
import { reapUnusedFiles } from '../src/files/reaper.js';
import { openFileStore } from '../src/files/store-select.js';
import { pdfLimits } from '../src/pdf/pdf-pool.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * Decision 133: the limits of what one account uploads hold under any concurrency (the room is reserved in
 * the database, one creation after the other), and the files nothing uses after a day are removed. Requests
 * go through app.inject, fired together with Promise.all.
 */

const MB = 1024 * 1024;
const redisUrl = process.env.TEST_REDIS_URL;
type Caller = Awaited<ReturnType<typeof createUser>>;

/** What a pupil's upload is for: an online chapter whose PDF exercise they may answer now. */
async function seed(t: TestApp) {
  const db = t.database.db;
  const [school] = await db.insert(institutions).values({ name: 'Collège Sophie Germain' }).returning();
  const [paper, online] = await db
    .insert(chapters)
    .values([{ title: 'Épreuve papier', offline: true }, { title: 'Tour PDF' }])
    .returning();
  await db.insert(accessGroups).values({ chapterId: online.id, position: 0 });
  const [exercise] = await db.insert(exercises).values({ chapterId: online.id, title: 'Preuve', answerFormat: 'pdf' }).returning();
  const pupil = () =>
    createUser(t, 'pupil', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      gender: 'female',
      birthDate: '2010-12-10',
      grade: '3eme',
      defaultChoice: 'local',
      emailParent: 'parent@exemple.fr',
      institutionId: school.id,
    });
  return { schoolId: school.id, paperChapter: paper.id, onlineChapter: online.id, exercise: exercise.id, pupil };
}

/**
 * A one-page PDF of about `noiseBytes` bytes that the upload check stores as it is (decision 131: no information
 * dictionary, no attachment): random letters drawn on the page keep each file's bytes its own.
 */
async function makePdf(noiseBytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const letters = Array.from({ length: noiseBytes }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
  doc.addPage([595, 842]).drawText(letters, { x: 10, y: 10, size: 1 });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

const createUpload = (t: TestApp, caller: Caller, length: number, meta: Record<string, string>) =>
  inject(t, {
    method: 'POST',
    url: '/api/uploads',
    headers: { ...caller.headers, 'tus-resumable': '1.0.0', 'upload-length': String(length), 'upload-metadata': metadata(meta) },
  });

function postPdf(t: TestApp, caller: Caller, fields: Record<string, string>, bytes: Buffer) {
  const boundary = `----olympe${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="copie.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return inject(t, {
    method: 'POST',
    url: '/api/pdfs',
    headers: { ...caller.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
}

/** `n` creations of `length` bytes at once; the accepted ones' urls, and every answer. */
async function createMany(t: TestApp, caller: Caller, n: number, length: number, meta: Record<string, string>) {
  const all = await Promise.all(Array.from({ length: n }, () => createUpload(t, caller, length, meta)));
  const accepted = all.filter((r) => r.status === 201).map((r) => String(r.headers.location));
  return { all, accepted };
}

/** Each accepted upload is still there for its owner: HEAD answers its offset (0) and declared length. */
async function expectUsable(t: TestApp, caller: Caller, urls: string[], length: number) {
  for (const url of urls) {
    const res = await t.app.inject({ method: 'HEAD', url, headers: { ...caller.headers, 'tus-resumable': '1.0.0' } });
    expect([url, res.statusCode, res.headers['upload-offset'], res.headers['upload-length']]).toEqual([url, 200, '0', String(length)]);
  }
}

describe('unfinished uploads under concurrency (decision 111, reserved as decision 133 says)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    // A pupil's copy 1 MB, a scan 2 MB: at most 3 MB and 6 MB unfinished.
    t = await buildTestApp({ env: { MAX_PDF_MB: '1', MAX_SCAN_MB: '2' } });
    s = await seed(t);
  }, 60_000);
  afterAll(async () => t.close());

  it('accepts at most the cap of 25 scans created at once by a teacher, and every accepted one stays usable', async () => {
    const teacher = await createUser(t, 'teacher', { institutionId: s.schoolId });
    const length = 1.5 * MB;
    const { all, accepted } = await createMany(t, teacher, 25, length, { chapter: s.paperChapter, filename: 'lot.pdf' });
    // 4 × 1.5 MB fit in 3 × 2 MB; a fifth would not.
    expect(accepted.length * length).toBeLessThanOrEqual(6 * MB);
    expect(accepted.length).toBe(4);
    for (const refused of all.filter((r) => r.status !== 201)) {
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ message: TOO_MANY_UPLOADS_MESSAGE, code: 'rate_limited' });
    }
    await expectUsable(t, teacher, accepted, length);
    // Nothing of the refused ones is kept: one reservation per accepted upload.
    const slots = await t.database.db.select().from(uploadSlots).where(eq(uploadSlots.ownerId, teacher.id));
    expect(slots.map((r) => `/api/uploads/${r.id}`).sort()).toEqual([...accepted].sort());
    // The race forgot none of them: a later creation is still refused, and a cancellation makes room for one.
    expect((await createUpload(t, teacher, length, { chapter: s.paperChapter, filename: 'encore.pdf' })).status).toBe(429);
    const cancelled = await t.app.inject({ method: 'DELETE', url: accepted[0], headers: { ...teacher.headers, 'tus-resumable': '1.0.0' } });
    expect(cancelled.statusCode).toBe(204);
    const again = await createMany(t, teacher, 5, length, { chapter: s.paperChapter, filename: 'encore.pdf' });
    expect(again.accepted.length).toBe(1);
    await expectUsable(t, teacher, [...accepted.slice(1), ...again.accepted], length);
  });

  it('accepts at most the cap of 40 copies of 1 MB created at once by a pupil during a test', async () => {
    const pupil = await s.pupil();
    const { accepted } = await createMany(t, pupil, 40, MB, { exercise: s.exercise, filename: 'copie.pdf' });
    expect(accepted.length).toBe(3);
    await expectUsable(t, pupil, accepted, MB);
  });
});

describe('stored bytes per account (decision 133)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    t = await buildTestApp({ env: { MAX_PDF_MB: '1', MAX_SCAN_MB: '2', FILES_QUOTA_MB: '0.5' } });
    s = await seed(t);
  }, 60_000);
  afterAll(async () => t.close());

  it('keeps a pupil under the quota when 20 PDFs arrive at once, with a French 413, and counts resumable uploads too', async () => {
    const pupil = await s.pupil();
    const pdf = await makePdf(100 * 1024);
    const all = await Promise.all(Array.from({ length: 20 }, () => postPdf(t, pupil, { exercise: s.exercise }, pdf)));
    const accepted = all.filter((r) => r.status === 200);
    expect(accepted.length).toBe(Math.floor((0.5 * MB) / pdf.length));
    for (const refused of all.filter((r) => r.status !== 200)) {
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ message: quotaMessage(0.5 * MB), code: 'too_large' });
    }
    expect(quotaMessage(0.5 * MB)).toBe(
      'Votre compte a atteint sa limite de fichiers enregistrés (0,5 Mo)\u00a0: les fichiers qui ne servent à aucune réponse sont effacés au bout d’un jour. Si vous avez besoin de plus de place, écrivez à l’équipe d’Olympe.',
    );
    const [{ bytes }] = await t.database.db
      .select({ bytes: sql<number>`sum(size)::int` })
      .from(files)
      .where(eq(files.ownerId, pupil.id));
    expect(Number(bytes)).toBeLessThanOrEqual(0.5 * MB);
    // Every reservation was given back.
    expect(await t.database.db.select().from(uploadSlots).where(eq(uploadSlots.ownerId, pupil.id))).toEqual([]);
    // A resumable upload of the same account is held to the same quota, before any byte.
    const copy = await createUpload(t, pupil, pdf.length, { exercise: s.exercise, filename: 'copie.pdf' });
    expect([copy.status, copy.body.code]).toEqual([413, 'too_large']);
    // Another pupil is not held back.
    expect((await postPdf(t, await s.pupil(), { exercise: s.exercise }, pdf)).status).toBe(200);
  });
});

describe('stored bytes per account, for what is kept (decision 133)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof seed>>;
  const queue = pdfLimits.maxQueue;
  beforeAll(async () => {
    t = await buildTestApp({ env: { FILES_QUOTA_MB: '0.05' } });
    s = await seed(t);
    // Every request reaches the conversion: none is turned away as « busy » before the quota is tested.
    pdfLimits.maxQueue = 100;
  }, 60_000);
  afterAll(async () => {
    pdfLimits.maxQueue = queue;
    await t.close();
  });

  it('keeps a pupil under the quota when 50 photos arrive at once, each made into a PDF larger than the photo', async () => {
    const pupil = await s.pupil();
    const photo = await sharp({ create: { width: 200, height: 300, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const boundary = '----olympe-photo';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="exercise"\r\n\r\n${s.exercise}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="page.png"\r\nContent-Type: image/png\r\n\r\n`),
      photo,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const send = () =>
      inject(t, {
        method: 'POST',
        url: '/api/pdfs/photos',
        headers: { ...pupil.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    const all = await Promise.all(Array.from({ length: 50 }, send));
    const accepted = all.filter((r) => r.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    for (const refused of all.filter((r) => r.status !== 200)) {
      expect(refused.body).toEqual({ message: quotaMessage(0.05 * MB), code: 'too_large' });
    }
    const [{ bytes, count }] = await t.database.db
      .select({ bytes: sql<number>`sum(size)::int`, count: sql<number>`count(*)::int` })
      .from(files)
      .where(eq(files.ownerId, pupil.id));
    expect(Number(bytes) / Number(count)).toBeGreaterThan(photo.length);
    expect(Number(bytes)).toBeLessThanOrEqual(0.05 * MB);
    expect(await t.database.db.select().from(uploadSlots).where(eq(uploadSlots.ownerId, pupil.id))).toEqual([]);
  }, 120_000);
});

/** `n` POST /pdfs at once when the rate is 5 a minute: exactly 5 get past it. */
async function expectRate(t: TestApp, caller: Caller, send: () => Promise<{ status: number; body: any }>, n: number) {
  const all = await Promise.all(Array.from({ length: n }, send));
  const limited = all.filter((r) => r.status === 429);
  expect(limited.length).toBe(n - 5);
  for (const r of limited) expect(r.body).toEqual({ message: UPLOAD_RATE_MESSAGE, code: 'rate_limited' });
  expect(all.filter((r) => r.status !== 429).every((r) => r.status === 200 || r.status === 201)).toBe(true);
}

describe.each([['PostgreSQL', {}], ...(redisUrl ? [[`Redis (${redisUrl})`, { REDIS_URL: redisUrl }] as const] : [])] as Array<
  [string, Record<string, string>]
>)('uploads per minute, counted in %s (decision 133)', (_name, env) => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    t = await buildTestApp({ env: { MAX_PDF_MB: '1', MAX_SCAN_MB: '2', UPLOADS_PER_MINUTE: '5', STAFF_UPLOADS_PER_MINUTE: '5', ...env } });
    s = await seed(t);
  }, 60_000);
  afterAll(async () => t.close());

  it('lets exactly 5 of 20 PDFs sent at once by a pupil through, the others 429 in French', async () => {
    const pupil = await s.pupil();
    const pdf = await makePdf(1024);
    await expectRate(t, pupil, () => postPdf(t, pupil, { exercise: s.exercise }, pdf), 20);
  });

  it('counts resumable creations too: 5 of 20 scans created at once by a teacher', async () => {
    const teacher = await createUser(t, 'teacher', { institutionId: s.schoolId });
    await expectRate(t, teacher, () => createUpload(t, teacher, 1000, { chapter: s.paperChapter, filename: 'page.pdf' }), 20);
  });
});

describe('files nothing uses after a day (decision 133)', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof seed>>;
  const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN } });
    s = await seed(t);
  }, 60_000);
  afterAll(async () => t.close());

  it('removes the rows and bytes of a day-old file nothing references, and keeps every file an answer or a scan uses', async () => {
    const db = t.database.db;
    const store = openFileStore({ config: t.config, db });
    const pupil = await s.pupil();
    const teacher = await createUser(t, 'teacher', { institutionId: s.schoolId });
    const upload = async (caller: Caller, fields: Record<string, string>) => {
      const res = await postPdf(t, caller, fields, await makePdf(512));
      expect(res.status).toBe(200);
      return String(res.body.path).slice('pdfs/'.length, -'.pdf'.length);
    };
    const [unused, young, current, older, withdrawn, byPath] = [
      await upload(pupil, { exercise: s.exercise }),
      await upload(pupil, { exercise: s.exercise }),
      await upload(pupil, { exercise: s.exercise }),
      await upload(pupil, { exercise: s.exercise }),
      await upload(pupil, { exercise: s.exercise }),
      await upload(pupil, { exercise: s.exercise }),
    ];
    const scan = await upload(teacher, { chapter: s.paperChapter });
    const pathOf = (id: string) => `pdfs/${id}.pdf`;
    // An older answer, replaced by the current one; a withdrawn answer; an answer that names its file only by path.
    await db.insert(answers).values([
      { userId: pupil.id, exerciseId: s.exercise, answer: pathOf(older), fileId: older, seq: 1 },
      { userId: pupil.id, exerciseId: s.exercise, answer: pathOf(current), fileId: current, seq: 2 },
      { userId: pupil.id, exerciseId: s.exercise, answer: pathOf(withdrawn), fileId: withdrawn, seq: 3, withdrawnAt: new Date() },
      { userId: pupil.id, exerciseId: s.exercise, answer: pathOf(byPath), fileId: null, seq: 4 },
    ]);
    await db
      .insert(unlabeledAnswers)
      .values({ chapterId: s.paperChapter, fileId: scan, institutionId: s.schoolId, uploadedBy: teacher.id });
    const aged = [unused, current, older, withdrawn, byPath, scan];
    await db
      .update(files)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(inArray(files.id, aged));

    expect(await reapUnusedFiles({ db, store, onReaped: (n) => t.app.metrics.countReapedFiles(n) })).toBe(1);
    const left = (await db.select({ id: files.id }).from(files)).map((r) => r.id);
    expect(left).not.toContain(unused);
    expect(await store.get(unused)).toBeNull();
    for (const kept of [young, current, older, withdrawn, byPath, scan]) {
      expect(left).toContain(kept);
      expect(await store.get(kept)).not.toBeNull();
    }
    // Nothing more to do the next time.
    expect(await reapUnusedFiles({ db, store })).toBe(0);

    const metrics = await inject(t, { method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(String(metrics.body)).toMatch(/^olympe_files_reaped_total 1$/m);
  });
});
