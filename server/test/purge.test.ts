import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, auditLog, users } from '../src/db/schema.js';
import { openFileStore } from '../src/files/store-select.js';
import { findInactiveUsers, purgeCutoff, purgeInactiveUsers } from '../src/ops/purge.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';
import { makeChapter, makePdf, multipart } from './ops-helpers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const at = (iso: string) => new Date(iso);

describe('purgeCutoff', () => {
  it('is midnight of 1 January in Paris', () => {
    expect(purgeCutoff(2024).toISOString()).toBe('2023-12-31T23:00:00.000Z');
  });
});

describe('purge of inactive accounts', () => {
  it('deletes old accounts without answers, anonymises old ones with answers, keeps the rest', async () => {
    const db = t.database.db;
    const chapter = await makeChapter(db, 'Tour ancien');
    const old = { createdAt: at('2019-09-01T10:00:00Z'), lastLoginAt: at('2020-03-01T10:00:00Z') };
    const oldWithAnswers = await createUser(t, 'pupil', { ...old, firstName: 'Ancien', lastName: 'Participant' });
    const oldWithout = await createUser(t, 'pupil', { ...old, firstName: 'Jamais', lastName: 'Venu' });
    const backLater = await createUser(t, 'pupil', { ...old, lastLoginAt: at('2025-01-10T10:00:00Z') });
    const answeredLater = await createUser(t, 'pupil', old);
    const oldAdmin = await createUser(t, 'admin', old);
    const oldTeacher = await createUser(t, 'teacher', { ...old, lastLoginAt: null });
    const justBefore = await createUser(t, 'pupil', { createdAt: at('2023-12-31T22:59:00Z') });
    const newYearParis = await createUser(t, 'pupil', { createdAt: at('2023-12-31T23:30:00Z') });
    await db.insert(answers).values([
      { userId: oldWithAnswers.id, exerciseId: chapter.numericId, answer: '12', grade: '1', createdAt: at('2020-03-01T10:05:00Z') },
      { userId: answeredLater.id, exerciseId: chapter.numericId, answer: '13', createdAt: at('2024-05-01T10:05:00Z') },
    ]);
    // The pupil's own copy from 2020: their name is on it, so its bytes go.
    const pdf = await makePdf(1, 'Ancien');
    const body = multipart({ chapter: chapter.chapterId }, { name: 'ancien.pdf', bytes: pdf });
    const admin = await createUser(t, 'admin');
    const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(up.status).toBe(200);
    const fileId = String(up.body.path).slice(5, -4);
    await db.insert(answers).values({
      userId: oldWithAnswers.id,
      exerciseId: chapter.pdfId,
      answer: up.body.path,
      fileId,
      createdAt: at('2020-03-01T10:06:00Z'),
    });

    const candidates = await findInactiveUsers(db, 2024);
    const ids = candidates.map((c) => c.id).sort();
    expect(ids).toEqual([oldWithAnswers.id, oldWithout.id, oldTeacher.id, justBefore.id].sort());

    const store = openFileStore({ config: t.config, db });
    expect(await purgeInactiveUsers({ db, store }, 2024, { dryRun: true })).toEqual({ deleted: 3, anonymised: 1, filesErased: 0 });
    expect(await db.select({ id: users.id }).from(users).where(inArray(users.id, ids))).toHaveLength(4);

    expect(await purgeInactiveUsers({ db, store }, 2024)).toEqual({ deleted: 3, anonymised: 1, filesErased: 1 });
    const left = await db.select().from(users).where(inArray(users.id, ids));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ id: oldWithAnswers.id, firstName: null, lastName: null, passwordHash: null });
    expect(left[0].email).toMatch(/@anonyme\.invalid$/);
    expect(await db.select().from(answers).where(eq(answers.userId, oldWithAnswers.id))).toHaveLength(2);
    expect(await store.get(fileId)).toBeNull();
    for (const kept of [backLater, answeredLater, oldAdmin, newYearParis, admin]) {
      const [row] = await db.select().from(users).where(eq(users.id, kept.id));
      expect(row.email).toBe(kept.email);
    }
    const audit = await db.select().from(auditLog).where(inArray(auditLog.targetId, ids));
    expect(audit.map((a) => a.action).sort()).toEqual([
      'user.purge.anonymise',
      'user.purge.delete',
      'user.purge.delete',
      'user.purge.delete',
    ]);

    // Nothing left to do a second time: anonymised accounts are never purged again.
    expect(await purgeInactiveUsers({ db, store }, 2024)).toEqual({ deleted: 0, anonymised: 0, filesErased: 0 });
  });
});

describe('npm run purge', () => {
  it('refuses a missing or absurd year, or an unknown option, with a French usage line', async () => {
    for (const args of [['--before'], ['--before', '24'], ['--bin']]) {
      const err = await run('node', ['--import', 'tsx', 'server/src/ops/purge-cli.ts', ...args], { cwd: root }).catch((e) => e);
      expect(err.code).toBe(1);
      expect(err.stderr).toContain('Usage : npm run purge -- [--before ANNÉE] [--dry-run]');
    }
  });

  it('runs against the configured data folder', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-purge-'));
    const { stdout } = await run('node', ['--import', 'tsx', 'server/src/ops/purge-cli.ts', '--before', '2024', '--dry-run'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain('Corbeille (plus de 30 jours) : 0 chapitre(s) et 0 exercice(s) seraient supprimés, avec 0 fichier(s) PDF.');
    expect(stdout).toContain('Comptes inactifs depuis avant le 1er janvier 2024 : 0 seraient supprimés, 0 seraient anonymisés.');
  }, 60_000);
});
