import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import type { FileStore } from '../src/files/store.js';
import { openFileStore } from '../src/files/store-select.js';
import { institutions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';
import { ensureFileBlobs, makeChapter, makePdf, multipart } from './ops-helpers.js';

/**
 * Every files store passes the same tests (docs/operations.md "Files store"): the store contract,
 * then upload → view → refusal → signed link through the API. S3 runs against s3rver, a local
 * S3-compatible server started here.
 */
let s3: S3rver;
let s3Env: Record<string, string>;
beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: mkdtempSync(path.join(os.tmpdir(), 'olympe-s3-')),
    configureBuckets: [{ name: 'olympe-copies' }],
  });
  const { port } = await s3.run();
  s3Env = {
    FILE_STORE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: 'olympe-copies',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: 'test/pdfs/',
  };
});
afterAll(async () => s3.close());

describe('configuration', () => {
  it('defaults to the disk store and names what S3 lacks', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-cfg-'));
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(20) }).fileStore).toBe('disk');
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(20), FILE_STORE: 's3', S3_BUCKET: 'b' })).toThrow(
      /S3_ENDPOINT: obligatoire quand FILE_STORE=s3[\s\S]*S3_ACCESS_KEY_ID/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(20), FILE_STORE: 'ftp' })).toThrow(/FILE_STORE/);
  });
});

describe('the S3 store', () => {
  // s3rver checks the access key of a SigV4 request but not the signature itself (aws4 computes it).
  it('fails loudly when the bucket refuses the credentials', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-cfg-'));
    const config = loadConfig({ ...s3Env, S3_ACCESS_KEY_ID: 'UNKNOWN-KEY', DATA_DIR: dir, JWT_SECRET: 'x'.repeat(20) });
    const store = openFileStore({ config, db: undefined as never });
    await expect(store.put(randomUUID(), Buffer.from('%PDF-1.4'))).rejects.toThrow(/S3 put failed: 403/);
  });
});

describe.each(['disk', 'postgres', 's3'] as const)('the %s store', (kind) => {
  let t: TestApp;
  let store: FileStore;
  beforeAll(async () => {
    t = await buildTestApp({ env: kind === 's3' ? s3Env : { FILE_STORE: kind } });
    await ensureFileBlobs(t.database.db);
    store = openFileStore({ config: t.config, db: t.database.db });
  });
  afterAll(async () => t.close());

  it('puts, gets, overwrites and deletes bytes by id; a missing id reads null', async () => {
    const id = randomUUID();
    expect(await store.get(id)).toBeNull();
    const first = await makePdf(2, 'premier');
    await store.put(id, first);
    expect(Buffer.compare((await store.get(id))!, first)).toBe(0);
    const second = Buffer.concat([await makePdf(1, 'second'), Buffer.from([0, 255, 10, 13])]);
    await store.put(id, second);
    expect(Buffer.compare((await store.get(id))!, second)).toBe(0);
    await store.delete(id);
    expect(await store.get(id)).toBeNull();
    await store.delete(id);
  });

  it('refuses an id that is not a UUID', async () => {
    await expect(store.put('../../etc/passwd', Buffer.from('%PDF-'))).rejects.toThrow(/invalid file id/);
    await expect(store.get('nope')).rejects.toThrow(/invalid file id/);
  });

  it('upload → view by the owner and staff, refusal to another pupil, signed link', async () => {
    const db = t.database.db;
    const [school] = await db.insert(institutions).values({ name: 'Collège Ada Lovelace' }).returning();
    const chapter = await makeChapter(db, `Tour ${kind}`);
    const pupil = await createUser(t, 'pupil', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      gender: 'female',
      birthDate: '2009-12-10',
      grade: '3e',
      defaultChoice: 'local',
      emailParent: 'parent.lovelace@exemple.fr',
      institutionId: school.id,
    });
    const bytes = await makePdf(3, kind);
    const body = multipart({ exercise: chapter.pdfId }, { name: 'copie.pdf', bytes });
    const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...pupil.headers, ...body.headers }, payload: body.payload });
    expect(up.status).toBe(200);
    const file = String(up.body.path).slice(5);
    expect(Buffer.compare((await store.get(file.slice(0, -4)))!, bytes)).toBe(0);

    for (const headers of [pupil.headers, (await createUser(t, 'member')).headers]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/pdfs/${file}`, headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);
    }
    const other = await inject(t, { method: 'GET', url: `/api/pdfs/${file}`, headers: (await createUser(t, 'pupil')).headers });
    expect(other.status).toBe(403);
    const link = await inject(t, { method: 'GET', url: `/api/pdfs/${file}/link`, headers: pupil.headers });
    const signed = await t.app.inject({ method: 'GET', url: link.body.url });
    expect(signed.statusCode).toBe(200);
    expect(Buffer.compare(signed.rawPayload, bytes)).toBe(0);
  });
});
