import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, chapters, exercises, files, institutions, unlabeledAnswers } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import { reserveUpload, TOO_MANY_UPLOADS_MESSAGE, UNFINISHED_UPLOADS } from '../src/files/quota.js';
import { openUploads, UPLOAD_EXPIRY_MS } from '../src/files/uploads.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

/**
 * Resumable uploads (decision 91) through a real listener: the tus 1.0 protocol as tus-js-client
 * speaks it (POST with Upload-Length and Upload-Metadata, PATCH in chunks, HEAD for the offset), a
 * PATCH cut in the middle of its body, and the resume; the finished upload gives the same records as
 * POST /pdfs.
 */

let t: TestApp;
let base: string;
let schoolId: string;
let paperChapter: string;
let onlineChapter: string;
let pdfExercise: string;
type Caller = { id: string; headers: Record<string, string> };
let teacher: Caller;
let otherTeacher: Caller;
let pupilUser: Caller;
let scan: Buffer;

/**
 * A multi-page "scan" of ~300 KB whose bytes are its own (random hex in a comment of its first page), with
 * nothing for the upload check to remove (no information dictionary, no attachment: decision 131), so it is
 * stored byte for byte.
 */
async function makeScan(pages: number, noiseBytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]);
  const noise = Buffer.alloc(Math.ceil(noiseBytes / 2));
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(Math.random() * 256);
  doc.getPage(0).node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(`% ${noise.toString('hex')}\n`)));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

beforeAll(async () => {
  // Small limits so the 413s are cheap: a pupil's PDF 1 MB, a scan 2 MB.
  t = await buildTestApp({ env: { MAX_PDF_MB: '1', MAX_SCAN_MB: '2' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const db = t.database.db;
  [{ id: schoolId }] = await db
    .insert(institutions)
    .values([{ name: 'Collège Sophie Germain' }])
    .returning();
  const [otherSchool] = await db
    .insert(institutions)
    .values([{ name: 'Lycée Emmy Noether' }])
    .returning();
  const [paper, online] = await db
    .insert(chapters)
    .values([{ title: 'Épreuve papier', offline: true }, { title: 'Tour PDF' }])
    .returning();
  paperChapter = paper.id;
  onlineChapter = online.id;
  await db.insert(accessGroups).values({ chapterId: onlineChapter, position: 0 });
  [{ id: pdfExercise }] = await db
    .insert(exercises)
    .values([{ chapterId: onlineChapter, title: 'Preuve', answerFormat: 'pdf' }])
    .returning();
  teacher = await createUser(t, 'teacher', { institutionId: schoolId });
  otherTeacher = await createUser(t, 'teacher', { institutionId: otherSchool.id });
  pupilUser = await createUser(t, 'pupil', {
    firstName: 'Ada',
    lastName: 'Lovelace',
    gender: 'female',
    birthDate: '2010-12-10',
    grade: '3eme',
    defaultChoice: 'local',
    emailParent: 'parent@exemple.fr',
    institutionId: schoolId,
  });
  scan = await makeScan(12, 300 * 1024);
}, 60_000);
afterAll(async () => t.close());

const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(method: string, url: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  const res = await fetch(`${base}${url}`, { method, headers, body: body ? new Uint8Array(body) : undefined });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const create = (
  headers: Record<string, string>,
  length: number | string,
  meta: Record<string, string>,
  extra: Record<string, string> = {},
) => call('POST', '/api/uploads', { ...TUS, ...headers, 'Upload-Length': String(length), 'Upload-Metadata': metadata(meta), ...extra });
const patch = (headers: Record<string, string>, url: string, offset: number, bytes: Buffer) =>
  call('PATCH', url, { ...TUS, ...headers, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, bytes);
const head = (headers: Record<string, string>, url: string) => call('HEAD', url, { ...TUS, ...headers });

const scanMeta = (name = 'salle-12.pdf') => ({ chapter: paperChapter, filename: name, filetype: 'application/pdf' });
const uploadDir = () => path.join(t.config.dataDir, 'uploads');
const pending = () => (existsSync(uploadDir()) ? readdirSync(uploadDir()) : []);

/**
 * Sends `bytes` from `offset` and cuts the connection after `cutAfter` bytes of the body, as a lost
 * Wi-Fi would: the request announced the whole length and never finishes.
 */
function cutPatch(headers: Record<string, string>, url: string, offset: number, bytes: Buffer, cutAfter: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(`${base}${url}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        ...headers,
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.write(bytes.subarray(0, cutAfter), () => {
      // Let the server write what it received before the cut.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
  });
}

/** HEAD until the server has noticed the cut and settled on an offset (the cut request held the upload's lock). */
async function settledOffset(url: string): Promise<number> {
  let last = -1;
  for (let i = 0; i < 50; i++) {
    const res = await head(teacher.headers, url);
    expect(res.status).toBe(200);
    const offset = Number(res.headers.get('upload-offset'));
    if (offset === last) return offset;
    last = offset;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

describe('resumable uploads (tus)', () => {
  it('creates, receives chunks, survives a cut PATCH, resumes from the HEAD offset and records the scan as POST /pdfs does', async () => {
    const created = await create(teacher.headers, scan.length, scanMeta());
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    expect(created.headers.get('tus-resumable')).toBe('1.0.0');
    // Security headers of the API, and no CORS: the answer went through Fastify.
    expect(created.headers.get('x-content-type-options')).toBe('nosniff');
    expect(created.headers.get('access-control-allow-origin')).toBeNull();
    const id = location.split('/').pop()!;

    const chunk = 64 * 1024;
    let offset = 0;
    let sent = 0;
    // Two chunks, then a PATCH that stops after 40 KB of its 64 KB.
    for (let i = 0; i < 2; i++) {
      const res = await patch(teacher.headers, location, offset, scan.subarray(offset, offset + chunk));
      expect(res.status).toBe(204);
      offset = Number(res.headers.get('upload-offset'));
      sent += chunk;
      expect(offset).toBe(sent);
    }
    await cutPatch(teacher.headers, location, offset, scan.subarray(offset, offset + chunk), 40 * 1024);
    sent += 40 * 1024;
    const resumed = await settledOffset(location);
    // What arrived before the cut is kept (at least what the socket delivered, never past it).
    expect(resumed).toBeGreaterThan(offset);
    expect(resumed).toBeLessThanOrEqual(offset + 40 * 1024);
    const head1 = await head(teacher.headers, location);
    expect(head1.headers.get('upload-length')).toBe(String(scan.length));
    expect(head1.headers.get('cache-control')).toBe('no-store');

    // A PATCH from a stale offset is refused (409, the client asks HEAD again).
    const stale = await patch(teacher.headers, location, 0, scan.subarray(0, 10));
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^La reprise ne part pas du bon endroit/);

    // Resume from the server's offset to the end.
    offset = resumed;
    let last: Answer | undefined;
    while (offset < scan.length) {
      last = await patch(teacher.headers, location, offset, scan.subarray(offset, offset + chunk));
      sent += Math.min(chunk, scan.length - offset);
      offset = Number(last.headers.get('upload-offset'));
    }
    // The last PATCH answers what POST /pdfs answers.
    expect(last!.status).toBe(200);
    expect(last!.body).toEqual({ path: `pdfs/${id}.pdf` });
    // Less than the whole file was sent again.
    expect(sent - scan.length).toBeLessThan(scan.length);

    const viaPost = await postPdf(teacher.headers, { chapter: paperChapter }, 'salle-12.pdf', scan);
    expect(viaPost.status).toBe(200);
    const [tusRow] = await t.database.db.select().from(files).where(eq(files.id, id));
    const [postRow] = await t.database.db
      .select()
      .from(files)
      .where(eq(files.id, viaPost.body.path.slice(5, -4)));
    const same = (row: typeof tusRow) => ({ ...row, id: undefined, createdAt: undefined });
    expect(same(tusRow)).toEqual(same(postRow));
    expect(tusRow).toMatchObject({
      ownerId: teacher.id,
      institutionId: schoolId,
      originalName: 'salle-12.pdf',
      size: scan.length,
      pages: 12,
    });
    const stored = await openFileStore({ config: t.config, db: t.database.db }).get(id);
    expect(Buffer.compare(stored!, scan)).toBe(0);
    // The upload's own bytes are gone; a HEAD still says it is complete (a client that lost the last answer).
    expect(pending().filter((f) => f.startsWith(id))).toEqual([]);
    const done = await head(teacher.headers, location);
    expect(done.status).toBe(200);
    expect([done.headers.get('upload-offset'), done.headers.get('upload-length')]).toEqual([String(scan.length), String(scan.length)]);
    // Filed for sorting like any scan: same path, queued for reading.
    const filed = await inject(t, {
      method: 'POST',
      url: `/api/answer/unlabeled/${paperChapter}`,
      headers: teacher.headers,
      payload: { answer: `pdfs/${id}.pdf`, institution: schoolId },
    });
    expect(filed.status).toBe(201);
    expect(
      await t.database.db.select({ id: unlabeledAnswers.id }).from(unlabeledAnswers).where(eq(unlabeledAnswers.fileId, id)),
    ).toHaveLength(1);
  }, 30_000);

  it('tells a client that lost the last answer that the upload is complete, once the file is recorded', async () => {
    const bytes = await makeScan(3, 40 * 1024);
    const created = await create(teacher.headers, bytes.length, scanMeta('perdu.pdf'));
    const url = created.headers.get('location')!;
    const id = url.split('/').pop()!;
    // Every byte leaves, then the connection drops before the answer.
    await new Promise<void>((resolve) => {
      const req = http.request(`${base}${url}`, {
        method: 'PATCH',
        headers: {
          ...TUS,
          ...teacher.headers,
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
          'Content-Length': String(bytes.length),
        },
      });
      req.on('error', () => resolve());
      req.end(bytes, async () => {
        // Cut as soon as the server holds every byte (it may be checking the PDF already).
        const data = path.join(uploadDir(), id);
        for (let i = 0; i < 100 && existsSync(data) && statSync(data).size < bytes.length; i++) await new Promise((r) => setTimeout(r, 10));
        req.destroy();
        resolve();
      });
    });
    const res = await head(teacher.headers, url);
    expect(res.status).toBe(200);
    expect([res.headers.get('upload-offset'), res.headers.get('upload-length')]).toEqual([String(bytes.length), String(bytes.length)]);
    const [row] = await t.database.db.select().from(files).where(eq(files.id, id));
    expect(row).toMatchObject({ ownerId: teacher.id, originalName: 'perdu.pdf', pages: 3 });
  });

  it('refuses an upload over the limit when it is created, in French, before any byte', async () => {
    const before = pending().length;
    const res = await create(teacher.headers, 2 * 1024 * 1024 + 1, scanMeta());
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Le fichier dépasse la taille maximale autorisée (2 Mo).', code: 'too_large' });
    // A pupil's copy has the smaller limit of POST /pdfs.
    const copy = await create(pupilUser.headers, 1024 * 1024 + 1, { exercise: pdfExercise, filename: 'copie.pdf' });
    expect(copy.status).toBe(413);
    expect(copy.body.message).toBe('Le fichier dépasse la taille maximale autorisée (1 Mo).');
    expect(pending().length).toBe(before);
    // The upload form says the limit before a file is chosen.
    expect((await call('GET', '/api/config', {})).body.maxScanMb).toBe(2);
    // Exactly at the limit is accepted.
    expect((await create(teacher.headers, 2 * 1024 * 1024, scanMeta())).status).toBe(201);
  });

  it('caps what one user holds unfinished: declared sizes up to 3 × the limit, and 10 uploads, others unaffected', async () => {
    const secretary = await createUser(t, 'teacher', { institutionId: schoolId });
    const scanLimit = 2 * 1024 * 1024;
    const urls: string[] = [];
    for (let i = 0; i < UNFINISHED_UPLOADS.timesLimit; i++) {
      const res = await create(secretary.headers, scanLimit, scanMeta(`lot-${i}.pdf`));
      expect(res.status).toBe(201);
      urls.push(res.headers.get('location')!);
    }
    const before = pending().length;
    const refused = await create(secretary.headers, 1, scanMeta('lot-de-trop.pdf'));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: TOO_MANY_UPLOADS_MESSAGE, code: 'rate_limited' });
    expect(pending().length).toBe(before);
    // Another user is not held back by this one's uploads.
    const other = await create(teacher.headers, scanLimit, scanMeta('salle-7.pdf'));
    expect(other.status).toBe(201);
    expect((await call('DELETE', other.headers.get('location')!, { ...TUS, ...teacher.headers })).status).toBe(204);
    // Cancelling one makes room again.
    expect((await call('DELETE', urls.pop()!, { ...TUS, ...secretary.headers })).status).toBe(204);
    expect((await create(secretary.headers, scanLimit, scanMeta('lot-2-bis.pdf'))).status).toBe(201);

    // However small, no more than 10 at once.
    const copier = await createUser(t, 'teacher', { institutionId: schoolId });
    for (let i = 0; i < UNFINISHED_UPLOADS.count; i++)
      expect((await create(copier.headers, 1000, scanMeta(`page-${i}.pdf`))).status).toBe(201);
    expect((await create(copier.headers, 1000, scanMeta('page-11.pdf'))).status).toBe(429);
    // The count is kept in the database (decision 133): after a restart, or on another instance, it holds.
    const copierAuth = { userId: copier.id, isAdmin: false, isMember: false, isTeacher: true, institutionId: schoolId };
    await expect(
      reserveUpload({ db: t.database.db, config: t.config }, copierAuth, { id: randomUUID(), size: 1000, resumable: { limit: scanLimit } }),
    ).rejects.toMatchObject({
      statusCode: 429,
    });
  });

  it('refuses bad metadata and headers with a French 400, before anything is kept', async () => {
    const before = pending().length;
    const cases: Array<[Record<string, string>, number, RegExp]> = [
      [{ 'Upload-Metadata': metadata({ chapter: 'pas-un-identifiant' }) }, 400, /^Chapitre invalide\.$/],
      [{ 'Upload-Metadata': metadata({ exercise: 'abc' }) }, 400, /^Exercice invalide\.$/],
      [{ 'Upload-Metadata': metadata({ filename: 'x.pdf' }) }, 400, /^Indiquez l’exercice ou le chapitre/],
      [{ 'Upload-Metadata': 'chapter !!pas du base64!!' }, 400, /^Description de l’envoi \(Upload-Metadata\) illisible/],
      [{ 'Upload-Metadata': metadata({ chapter: '00000000-0000-4000-8000-0000000000ff' }) }, 404, /^Chapitre introuvable/],
      [{ 'Upload-Metadata': metadata(scanMeta()), 'Upload-Length': 'douze' }, 400, /^Taille du fichier \(Upload-Length\)/],
      [{ 'Upload-Metadata': metadata(scanMeta()), 'Upload-Length': '-5' }, 400, /^Taille du fichier/],
      [{ 'Upload-Metadata': metadata(scanMeta()), 'Upload-Length': '0' }, 400, /^Le fichier est vide/],
      [
        { 'Upload-Metadata': metadata(scanMeta()), 'Upload-Length': '', 'Upload-Defer-Length': '1' },
        400,
        /^La taille du fichier doit être annoncée/,
      ],
      [{ 'Upload-Metadata': metadata(scanMeta()), 'Upload-Concat': 'partial' }, 400, /parallèles/],
      [{ 'Upload-Metadata': metadata(scanMeta()), 'Tus-Resumable': '0.2.2' }, 412, /protocole tus 1\.0\.0/],
      [{ 'Upload-Metadata': metadata(scanMeta()), 'Content-Type': 'application/offset+octet-stream' }, 400, /^Créez l’envoi sans données/],
    ];
    for (const [extra, status, message] of cases) {
      const headers: Record<string, string> = { ...TUS, ...teacher.headers, 'Upload-Length': '1000', ...extra };
      if (headers['Upload-Length'] === '') delete headers['Upload-Length'];
      const res = await call('POST', '/api/uploads', headers);
      expect([res.status, res.body?.message], JSON.stringify(extra)).toEqual([status, expect.stringMatching(message)]);
    }
    expect(pending().length).toBe(before);
  });

  it('guards every step: 401 anonymous, 403 a pupil’s scan, 404 another user’s upload, 415 a PATCH of another type', async () => {
    expect((await create({}, 1000, scanMeta())).status).toBe(401);
    const pupilScan = await create(pupilUser.headers, 1000, scanMeta());
    expect(pupilScan.status).toBe(403);
    expect(pupilScan.body.message).toMatch(/^Vous n’avez pas accès/);

    const created = await create(teacher.headers, scan.length, scanMeta('mine.pdf'));
    const url = created.headers.get('location')!;
    expect((await head({}, url)).status).toBe(401);
    expect((await patch({}, url, 0, scan.subarray(0, 10))).status).toBe(401);
    for (const other of [otherTeacher, pupilUser]) {
      expect((await head(other.headers, url)).status).toBe(404);
      const stolen = await patch(other.headers, url, 0, scan.subarray(0, 10));
      expect([stolen.status, stolen.body.message]).toEqual([404, expect.stringMatching(/^Envoi introuvable/)]);
      expect((await call('DELETE', url, { ...TUS, ...other.headers })).status).toBe(404);
    }
    const wrongType = await call(
      'PATCH',
      url,
      { ...TUS, ...teacher.headers, 'Upload-Offset': '0', 'Content-Type': 'application/json' },
      Buffer.from('{}'),
    );
    expect([wrongType.status, wrongType.body.message]).toEqual([415, 'Type de contenu attendu : application/offset+octet-stream.']);
    const badId = await head(teacher.headers, '/api/uploads/pas-un-identifiant');
    expect(badId.status).toBe(400);
    // A query string does not change which upload is meant.
    expect((await head(teacher.headers, `${url}?x=1`)).headers.get('upload-offset')).toBe('0');
    // Nothing was written by anyone else.
    expect((await head(teacher.headers, url)).headers.get('upload-offset')).toBe('0');
    // The owner cancels: the upload is gone.
    expect((await call('DELETE', url, { ...TUS, ...teacher.headers })).status).toBe(204);
    expect((await head(teacher.headers, url)).status).toBe(404);
  });

  it('refuses a finished upload that is not a PDF with POST /pdfs’s French message, and keeps nothing', async () => {
    const bytes = Buffer.from('GIF89a'.padEnd(2000, '.'));
    const filesBefore = (await t.database.db.select({ id: files.id }).from(files)).length;
    const created = await create(teacher.headers, bytes.length, scanMeta('photo.pdf'));
    const url = created.headers.get('location')!;
    expect((await patch(teacher.headers, url, 0, bytes.subarray(0, 1000))).status).toBe(204);
    const last = await patch(teacher.headers, url, 1000, bytes.subarray(1000));
    expect(last.status).toBe(400);
    expect(last.body).toEqual({ message: 'Ce fichier n’est pas un PDF.', code: 'bad_request' });
    expect((await t.database.db.select({ id: files.id }).from(files)).length).toBe(filesBefore);
    expect(pending().filter((f) => url.endsWith(f.replace(/\.json$/, '')))).toEqual([]);
    expect((await head(teacher.headers, url)).status).toBe(404);
  });

  it('lets a pupil send a copy for a PDF exercise, with the same records as POST /pdfs', async () => {
    const copy = await makeScan(2, 10 * 1024);
    const created = await create(pupilUser.headers, copy.length, { exercise: pdfExercise, filename: 'ma copie.pdf' });
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const res = await patch(pupilUser.headers, url, 0, copy);
    expect(res.status).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(files)
      .where(eq(files.id, url.split('/').pop()!));
    expect(row).toMatchObject({ ownerId: pupilUser.id, originalName: 'ma copie.pdf', size: copy.length, pages: 2 });
  });

  it('answers 410 for an expired upload, and the cleanup removes it', async () => {
    const created = await create(teacher.headers, scan.length, scanMeta('ancien.pdf'));
    const url = created.headers.get('location')!;
    const id = url.split('/').pop()!;
    expect((await patch(teacher.headers, url, 0, scan.subarray(0, 1000))).status).toBe(204);
    // Created two days ago.
    const info = path.join(uploadDir(), `${id}.json`);
    const kept = JSON.parse(readFileSync(info, 'utf8'));
    kept.creation_date = new Date(Date.now() - UPLOAD_EXPIRY_MS - 3600_000).toISOString();
    writeFileSync(info, JSON.stringify(kept));
    const expired = await head(teacher.headers, url);
    expect(expired.status).toBe(410);
    const more = await patch(teacher.headers, url, 1000, scan.subarray(1000, 2000));
    expect([more.status, more.body.message]).toEqual([410, 'Cet envoi a expiré : recommencez l’envoi du fichier.']);
    const uploads = openUploads({
      db: t.database.db,
      config: t.config,
      store: openFileStore({ config: t.config, db: t.database.db }),
      log: t.app.log,
    });
    expect(await uploads.cleanUp()).toBeGreaterThanOrEqual(1);
    expect(pending().filter((f) => f.startsWith(id))).toEqual([]);
  });
});

async function postPdf(headers: Record<string, string>, fields: Record<string, string>, name: string, bytes: Buffer) {
  const boundary = `----olympe${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return inject(t, {
    method: 'POST',
    url: '/api/pdfs',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  });
}
