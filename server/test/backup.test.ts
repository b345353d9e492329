import { mkdtempSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.js';
import { accessGroups, answers, auditLog, focusEvents, gradeAudit, institutions } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import { createBackup, restoreBackup } from '../src/ops/backup.js';
import { buildTestApp, createUser, inject, PASSWORD, type TestApp } from './helpers.js';
import { ensureFileBlobs, makeChapter, makePdf, multipart } from './ops-helpers.js';

const opened: TestApp[] = [];
afterAll(async () => {
  for (const t of opened) await t.close().catch(() => undefined);
});
async function instance(env: Record<string, string> = {}) {
  const t = await buildTestApp({ env });
  opened.push(t);
  if (env.FILE_STORE === 'postgres') await ensureFileBlobs(t.database.db);
  return t;
}
const storeOf = (t: TestApp) => openFileStore({ config: t.config, db: t.database.db });
const tmp = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'olympe-backup-')), 'snapshot');

/** Every row of every table (but the blob store), as text, sorted: two equal maps mean equal databases. */
async function contentsOf(db: Db): Promise<Record<string, string[]>> {
  const result = await db.execute(sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'file_blobs'`);
  const out: Record<string, string[]> = {};
  for (const { tablename } of (result as unknown as { rows: Array<{ tablename: string }> }).rows) {
    // answer_counts splits each count over connection slots (decision 116): only its sums must come back.
    const source =
      tablename === 'answer_counts'
        ? sql`(SELECT exercise_id, sum(pairs) AS pairs, sum(answered) AS answered, sum(graded) AS graded FROM answer_counts GROUP BY exercise_id)`
        : sql.identifier(tablename);
    const rows = await db.execute(sql`SELECT row_to_json(t)::text AS j FROM ${source} t`);
    out[tablename] = (rows as unknown as { rows: Array<{ j: string }> }).rows.map((r) => r.j).sort();
  }
  return out;
}

/** A small cup: pupils with profiles, numeric answers with grades and their audit, PDF copies, blur events. */
async function fillCup(t: TestApp) {
  const db = t.database.db;
  const admin = await createUser(t, 'admin');
  const [school] = await db.insert(institutions).values({ name: 'Lycée Émilie du Châtelet', latitude: 48.85, longitude: 2.35 }).returning();
  const chapter = await makeChapter(db, 'Tour de sauvegarde');
  await db
    .insert(accessGroups)
    .values({ chapterId: chapter.chapterId, position: 1, name: 'lycée', authorizedGrades: ['2nde', '1ere'], timeDuration: 3600 });
  const pupils = [];
  const pdfs = new Map<string, Buffer>();
  for (let i = 0; i < 3; i++) {
    const pupil = await createUser(t, 'pupil', {
      firstName: `Élève ${i}`,
      lastName: 'Châtelet',
      gender: i % 2 ? 'male' : 'female',
      birthDate: '2009-01-0' + (i + 1),
      grade: '2nde',
      defaultChoice: 'local',
      emailParent: `parent${i}@exemple.fr`,
      institutionId: school.id,
    });
    pupils.push(pupil);
    const bytes = await makePdf(i + 1, `Copie ${i}`);
    const body = multipart({ exercise: chapter.pdfId }, { name: `copie-${i}.pdf`, bytes });
    const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...pupil.headers, ...body.headers }, payload: body.payload });
    expect(up.status).toBe(200);
    const fileId = String(up.body.path).slice(5, -4);
    pdfs.set(fileId, bytes);
    const [numeric] = await db
      .insert(answers)
      .values([
        {
          userId: pupil.id,
          exerciseId: chapter.numericId,
          answer: String(i * 7),
          seq: 1700000000000 + i,
          ip: '198.51.100.1',
          grade: String(i % 2),
          gradeComment: `Très bien « ${i} »`,
          graderId: admin.id,
          gradeTimestamp: new Date(),
        },
        { userId: pupil.id, exerciseId: chapter.pdfId, answer: up.body.path, fileId, seq: 1, grade: 'X' },
      ])
      .returning();
    await db
      .insert(gradeAudit)
      .values({ answerId: numeric.id, graderId: admin.id, oldGrade: null, newGrade: String(i % 2), newComment: 'ok' });
    await db.insert(focusEvents).values({ chapterId: chapter.chapterId, userId: pupil.id, eventType: 'blur', ip: '198.51.100.1' });
  }
  await db.insert(auditLog).values({ actorId: admin.id, action: 'test.details', details: { nested: { list: [1, 2, 3] }, text: 'é' } });
  return { admin, pupils, pdfs };
}

describe.each([
  ['disk', 'disk'],
  ['postgres', 'disk'],
  ['disk', 'postgres'],
])('backup from the %s store, restore into the %s store', (fromStore, toStore) => {
  it('backup → wipe → restore finds every user, answer, grade and PDF identical', async () => {
    const source = await instance({ FILE_STORE: fromStore });
    const cup = await fillCup(source);
    const before = await contentsOf(source.database.db);
    // The tables the answers' triggers keep are not in the backup; the restore must rebuild them.
    expect(before.current_answers.length).toBeGreaterThan(0);
    expect(before.answer_counts.length).toBeGreaterThan(0);
    const dir = tmp();

    const manifest = await createBackup({ db: source.database.db, store: storeOf(source) }, dir);
    expect(manifest.files).toBe(3);
    expect(manifest.missingFiles).toEqual([]);
    expect(manifest.tables.users).toBe(4);
    expect(manifest.tables.answers).toBe(6);
    expect((await readdir(path.join(dir, 'files'))).sort()).toEqual([...cup.pdfs.keys()].map((id) => `${id}.pdf`).sort());

    // The wipe: the source instance is gone; a new empty one (new database, new data folder) takes its place.
    await source.close();
    const target = await instance({ FILE_STORE: toStore });
    expect((await contentsOf(target.database.db)).users).toEqual([]);
    await restoreBackup({ db: target.database.db, store: storeOf(target) }, dir);

    expect(await contentsOf(target.database.db)).toEqual(before);
    // Through the API: a pupil logs in with their password and reads their copy, byte for byte.
    const pupil = cup.pupils[1];
    const login = await inject(target, { method: 'POST', url: '/api/auth/login', payload: { email: pupil.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    for (const [fileId, bytes] of cup.pdfs) {
      const res = await target.app.inject({ method: 'GET', url: `/api/pdfs/${fileId}.pdf`, headers: cup.admin.headers });
      expect(res.statusCode).toBe(200);
      expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);
    }
    // Serial ids go on after the restored ones.
    await target.database.db.insert(auditLog).values({ action: 'after.restore' });
  });
});

describe('restore safety', () => {
  it('refuses an instance that already has accounts, and a backup of another schema version, changing nothing', async () => {
    const source = await instance();
    await fillCup(source);
    const dir = tmp();
    await createBackup({ db: source.database.db, store: storeOf(source) }, dir);
    await expect(createBackup({ db: source.database.db, store: storeOf(source) }, dir)).rejects.toThrow(/existe déjà/);

    const before = await contentsOf(source.database.db);
    await expect(restoreBackup({ db: source.database.db, store: storeOf(source) }, dir)).rejects.toThrow(
      'Cette instance contient déjà des comptes : la restauration se fait dans une instance vide.',
    );
    expect(await contentsOf(source.database.db)).toEqual(before);

    const manifestFile = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    manifest.migrations.push('a-future-migration');
    await writeFile(manifestFile, JSON.stringify(manifest));
    const empty = await instance();
    await expect(restoreBackup({ db: empty.database.db, store: storeOf(empty) }, dir)).rejects.toThrow(/migrations/);
    expect((await contentsOf(empty.database.db)).users).toEqual([]);
  });
});

describe('npm run backup / npm run restore', () => {
  it('write a backup of the configured instance and bring it back into an empty one', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const run = promisify(execFile);
    const root = path.resolve(import.meta.dirname, '../..');
    const base = mkdtempSync(path.join(os.tmpdir(), 'olympe-cli-'));
    const env = (dir: string) => ({ ...process.env, DATA_DIR: path.join(base, dir), DATABASE_URL: '', LOG_LEVEL: 'silent' });
    const out = path.join(base, 'snapshot');
    const backup = await run('node', ['--import', 'tsx', 'server/src/ops/backup-cli.ts', 'backup', out], { cwd: root, env: env('a') });
    expect(backup.stdout).toMatch(/^Sauvegarde écrite dans .*snapshot\s: \d+ lignes, 0 fichiers PDF\.$/m);
    const restore = await run('node', ['--import', 'tsx', 'server/src/ops/backup-cli.ts', 'restore', out], { cwd: root, env: env('b') });
    expect(restore.stdout).toMatch(/^Sauvegarde du .* restaurée\s: \d+ tables, 0 fichiers PDF\.$/m);
    const again = await run('node', ['--import', 'tsx', 'server/src/ops/backup-cli.ts', 'restore'], { cwd: root, env: env('b') }).catch(
      (e) => e,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Usage : npm run restore -- DOSSIER_DE_SAUVEGARDE');
  }, 180_000);
});
