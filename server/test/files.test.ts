import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, chapters, exercises, files, institutions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

let t: TestApp;
let schoolId: string;
let otherSchoolId: string;
let pdfBytes: Buffer;
let chapterId: string;
let pdfExercise: string;
let numericExercise: string;

// 64 KB limit so the size check is cheap to reach.
beforeAll(async () => {
  t = await buildTestApp({ env: { MAX_PDF_MB: String(64 / 1024) } });
  const db = t.database.db;
  [{ id: schoolId }, { id: otherSchoolId }] = await db
    .insert(institutions)
    .values([{ name: 'Collège Blaise Pascal' }, { name: 'Collège Henri Poincaré' }])
    .returning();
  // Nothing for the upload check to remove (decision 131): the file is stored byte for byte.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.addPage([200, 200]);
  doc.addPage([200, 200]);
  pdfBytes = Buffer.from(await doc.save());
  const [c] = await db.insert(chapters).values({ title: 'Tour PDF' }).returning();
  chapterId = c.id;
  await db.insert(accessGroups).values({ chapterId, position: 0 });
  [{ id: pdfExercise }, { id: numericExercise }] = await db
    .insert(exercises)
    .values([
      { chapterId, title: 'Preuve', answerFormat: 'pdf' },
      { chapterId, title: 'Nombre', answerFormat: 'numeric' },
    ])
    .returning();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const pupil = (institutionId = schoolId) =>
  createUser(t, 'pupil', {
    firstName: 'Évariste',
    lastName: 'Galois',
    gender: 'male',
    birthDate: '2008-10-25',
    grade: '1ere',
    defaultChoice: 'local',
    emailParent: 'parent@exemple.fr',
    institutionId,
  });

/** A multipart body by hand: fields first, then the file (as browsers send FormData in order). */
function multipart(fields: Record<string, string>, file?: { name: string; bytes: Buffer; field?: string }) {
  const boundary = '----olympe' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(headers: Headers, fields: Record<string, string>, file?: { name: string; bytes: Buffer; field?: string }) {
  const { payload, contentType } = multipart(fields, file);
  return inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...headers, 'content-type': contentType }, payload });
}

const storedFiles = () => {
  const dir = path.join(t.config.dataDir, 'pdfs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pdf')) : [];
};
const fileCount = async () => (await t.database.db.select({ id: files.id }).from(files)).length;

async function expectNothingStored(run: () => Promise<{ status: number; body: any }>, status: number, message: RegExp | string) {
  const before = [await fileCount(), storedFiles().length];
  const res = await run();
  expect(res.status).toBe(status);
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  else expect(res.body.message).toMatch(message);
  expect([await fileCount(), storedFiles().length]).toEqual(before);
}

describe('POST /pdfs', () => {
  it('refuses anonymous callers with 401', async () => {
    await expectNothingStored(
      () => upload({}, { exercise: pdfExercise }, { name: 'copie.pdf', bytes: pdfBytes }),
      401,
      'Vous devez vous connecter.',
    );
  });

  it('stores a pupil’s PDF under a random name and records it', async () => {
    const p = await pupil();
    const res = await upload(p.headers, { user: p.id, exercise: pdfExercise }, { name: '../../ma copie.pdf', bytes: pdfBytes });
    expect(res.status).toBe(200);
    expect(res.body.message).toBeUndefined();
    const match = /^pdfs\/([0-9a-f-]{36})\.pdf$/.exec(res.body.path);
    expect(match).not.toBeNull();
    const [row] = await t.database.db.select().from(files).where(eq(files.id, match![1]));
    expect(row).toMatchObject({ ownerId: p.id, institutionId: schoolId, originalName: 'ma copie.pdf', size: pdfBytes.length, pages: 2 });
    expect(storedFiles()).toContain(`${match![1]}.pdf`);
    // The answer that references it.
    const saved = await inject(t, {
      method: 'POST',
      url: '/api/answer',
      headers: p.headers,
      payload: { exerciseId: pdfExercise, answer: res.body.path, seq: 1 },
    });
    expect(saved.status).toBe(200);
  });

  it('refuses bytes that are not a PDF, a broken PDF, a too large file, and stores nothing', async () => {
    const p = await pupil();
    const send = (bytes: Buffer) => () => upload(p.headers, { exercise: pdfExercise }, { name: 'x.pdf', bytes });
    await expectNothingStored(send(Buffer.from('GIF89a not a pdf')), 400, 'Ce fichier n’est pas un PDF.');
    await expectNothingStored(
      send(Buffer.from('%PDF-1.7\nnothing useful here\n%%EOF')),
      400,
      /^Ce PDF (est illisible|ne contient aucune page)/,
    );
    await expectNothingStored(send(Buffer.alloc(0)), 400, 'Le fichier est vide.');
    const big = Buffer.concat([pdfBytes, Buffer.alloc(70 * 1024, 32)]);
    await expectNothingStored(send(big), 413, /^Le fichier dépasse la taille maximale autorisée/);
  });

  it('refuses uploads without a file, without a target, or not multipart', async () => {
    const p = await pupil();
    await expectNothingStored(() => upload(p.headers, { exercise: pdfExercise }), 400, 'Aucun fichier reçu : choisissez un fichier PDF.');
    await expectNothingStored(() => upload(p.headers, {}, { name: 'c.pdf', bytes: pdfBytes }), 400, /^Indiquez l’exercice/);
    await expectNothingStored(() => upload(p.headers, { exercise: 'abc' }, { name: 'c.pdf', bytes: pdfBytes }), 400, 'Exercice invalide.');
    await expectNothingStored(
      () => inject(t, { method: 'POST', url: '/api/pdfs', headers: p.headers, payload: { file: 'x' } }),
      415,
      /^Un envoi multipart/,
    );
  });

  it('refuses a non-PDF exercise, a chapter scan by a pupil, and a closed chapter', async () => {
    const p = await pupil();
    await expectNothingStored(
      () => upload(p.headers, { exercise: numericExercise }, { name: 'c.pdf', bytes: pdfBytes }),
      400,
      'Cet exercice n’attend pas de copie PDF.',
    );
    await expectNothingStored(
      () => upload(p.headers, { chapter: chapterId }, { name: 'c.pdf', bytes: pdfBytes }),
      403,
      /^Vous n’avez pas accès/,
    );
    const [closed] = await t.database.db.insert(chapters).values({ title: 'Fermé' }).returning();
    await t.database.db.insert(accessGroups).values({ chapterId: closed.id, position: 0, accessEnd: new Date(Date.now() - 60_000) });
    const [ex] = await t.database.db.insert(exercises).values({ chapterId: closed.id, title: 'P', answerFormat: 'pdf' }).returning();
    await expectNothingStored(
      () => upload(p.headers, { exercise: ex.id }, { name: 'c.pdf', bytes: pdfBytes }),
      403,
      'L’épreuve est terminée.',
    );
  });

  it('lets school staff upload scans for a chapter', async () => {
    const teacher = await createUser(t, 'teacher', { institutionId: schoolId });
    const res = await upload(teacher.headers, { chapter: chapterId }, { name: 'scan.pdf', bytes: pdfBytes });
    expect(res.status).toBe(200);
  });
});

describe('GET /pdfs/<id>.pdf', () => {
  let owner: Awaited<ReturnType<typeof pupil>>;
  let id: string;
  beforeAll(async () => {
    owner = await pupil();
    const res = await upload(owner.headers, { exercise: pdfExercise }, { name: 'c.pdf', bytes: pdfBytes });
    id = res.body.path.slice(5, -4);
  });
  const get = (url: string, headers: Headers = {}) => t.app.inject({ method: 'GET', url, headers });

  it('serves the bytes to the owner, members, admins and teachers of the owner’s school', async () => {
    const allowed = [
      owner.headers,
      (await createUser(t, 'member')).headers,
      (await createUser(t, 'admin')).headers,
      (await createUser(t, 'teacher', { institutionId: schoolId })).headers,
    ];
    for (const headers of allowed) {
      const res = await get(`/api/pdfs/${id}.pdf`, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(Buffer.compare(res.rawPayload, pdfBytes)).toBe(0);
    }
  });

  it('refuses anonymous callers, other pupils and teachers of another school', async () => {
    expect((await get(`/api/pdfs/${id}.pdf`)).statusCode).toBe(401);
    expect((await get(`/api/pdfs/${id}.pdf`, (await pupil()).headers)).statusCode).toBe(403);
    const otherTeacher = await createUser(t, 'teacher', { institutionId: otherSchoolId });
    expect((await get(`/api/pdfs/${id}.pdf`, otherTeacher.headers)).statusCode).toBe(403);
    expect((await inject(t, { method: 'GET', url: `/api/pdfs/${id}.pdf/link`, headers: otherTeacher.headers })).status).toBe(403);
  });

  it('gives 400 for a malformed name and 404 for an unknown file', async () => {
    const bad = await inject(t, { method: 'GET', url: '/api/pdfs/..%2F..%2Fetc%2Fpasswd', headers: owner.headers });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Données invalides/);
    expect((await get('/api/pdfs/00000000-0000-4000-8000-0000000000ff.pdf', owner.headers)).statusCode).toBe(404);
  });

  it('hands out a short-lived signed link that works without a header, and refuses a tampered or expired one', async () => {
    const link = await inject(t, { method: 'GET', url: `/api/pdfs/${id}.pdf/link`, headers: owner.headers });
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(new RegExp(`^/api/pdfs/${id}\\.pdf\\?exp=\\d+&sig=`));
    expect(Date.parse(link.body.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const res = await get(`${link.body.url}&download=1`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment/);

    const tampered = link.body.url.replace(/sig=./, (m: string) => (m.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await get(tampered)).statusCode).toBe(403);
    const exp = Number(/exp=(\d+)/.exec(link.body.url)![1]);
    expect((await get(link.body.url.replace(`exp=${exp}`, `exp=${exp + 3600}`))).statusCode).toBe(403);
    const { signPdfLink } = await import('../src/files/service.js');
    const expired = signPdfLink(t.config.jwtSecret, id, Date.now() - 3600_000);
    expect((await get(expired.url)).statusCode).toBe(403);
    // A link for one file does not open another.
    const other = await upload(owner.headers, { exercise: pdfExercise }, { name: 'd.pdf', bytes: pdfBytes });
    const otherId = other.body.path.slice(5, -4);
    expect((await get(link.body.url.replace(id, otherId))).statusCode).toBe(403);
  });
});
