import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answers,
  auditLog,
  chapters,
  chapterSessions,
  familyAddresses,
  focusEvents,
  groupMembers,
  institutions,
  regradeRequests,
  TEACHERS_GROUP_ID,
  users,
} from '../src/db/schema.js';
import { loggerOptions, observeRequests } from '../src/ops/logging.js';
import { buildTestApp, createUser, inject, loginAs, PASSWORD, type RoleName, type TestApp } from './helpers.js';
import { makeChapter, makePdf, multipart } from './ops-helpers.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
let chapter: Awaited<ReturnType<typeof makeChapter>>;

beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN } });
  admin = await createUser(t, 'admin');
  chapter = await makeChapter(t.database.db, 'Tour en direct');
});
afterAll(async () => t.close());

const FORBIDDEN_ROLES: Array<[Exclude<RoleName, 'admin'>, number]> = [
  ['anonymous', 401],
  ['pupil', 403],
  ['teacher', 403],
  ['member', 403],
];
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

describe('GET /api/metrics', () => {
  it.each(FORBIDDEN_ROLES)('refuses %s with %i', async (role, status) => {
    const res = await inject(t, { method: 'GET', url: '/api/metrics', headers: await loginAs(t, role) });
    expect(res.status).toBe(status);
    expect(res.body.message).toMatch(/connecter|accès/);
  });

  it('refuses a wrong metrics token', async () => {
    const res = await inject(t, { method: 'GET', url: '/api/metrics', headers: { authorization: 'Bearer not-the-metrics-token-000' } });
    expect(res.status).toBe(401);
  });

  it('serves Prometheus text to an admin and to the metrics token: routes, saves, timed sessions, scans', async () => {
    const [school] = await t.database.db.insert(institutions).values({ name: 'Collège Noether' }).returning();
    const pupil = await createUser(t, 'pupil', {
      firstName: 'Emmy',
      lastName: 'Noether',
      gender: 'female',
      birthDate: '2009-03-23',
      grade: '3e',
      defaultChoice: 'local',
      emailParent: 'parent.noether@exemple.fr',
      institutionId: school.id,
    });
    const saved = await inject(t, {
      method: 'POST',
      url: '/api/answer',
      headers: pupil.headers,
      payload: { exerciseId: chapter.numericId, answer: '42', seq: 1 },
    });
    expect(saved.body).toMatchObject({ current: true });
    await t.database.db
      .insert(chapterSessions)
      .values({ chapterId: chapter.chapterId, userId: pupil.id, endTime: new Date(Date.now() + 3600_000) });

    for (const headers of [admin.headers, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/metrics', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      const text = res.body;
      expect(text).toMatch(/olympe_http_requests_total\{method="POST",route="\/api\/answer",status="200"\} 1/);
      expect(text).toMatch(/olympe_http_request_duration_seconds_bucket\{le="[\d.]+",method="POST",route="\/api\/answer"\}/);
      expect(text).toMatch(/^olympe_answers_saved_total 1$/m);
      expect(text).toMatch(/^olympe_active_timed_sessions 1$/m);
      expect(text).toMatch(/^olympe_pdfs_to_sort 0$/m);
      expect(text).toMatch(/^olympe_jobs_queued 0$/m);
      expect(text).toContain('olympe_process_resident_memory_bytes');
      // Raw ids never become labels.
      expect(text).not.toContain(chapter.numericId);
    }
  });
});

describe('GET /api/chapter/:id/live', () => {
  it.each(FORBIDDEN_ROLES)('refuses %s with %i', async (role, status) => {
    const res = await inject(t, { method: 'GET', url: `/api/chapter/${chapter.chapterId}/live`, headers: await loginAs(t, role) });
    expect(res.status).toBe(status);
  });

  it('answers 400 in French for a bad id and 404 for an unknown chapter', async () => {
    const bad = await inject(t, { method: 'GET', url: '/api/chapter/abc/live', headers: admin.headers });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Identifiant de chapitre invalide');
    const unknown = await inject(t, {
      method: 'GET',
      url: '/api/chapter/00000000-0000-4000-8000-00000000dead/live',
      headers: admin.headers,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Chapitre introuvable.');
  });

  it('counts started, in progress, finished, saving in the last minute and blur events', async () => {
    const db = t.database.db;
    const c = await makeChapter(db, 'Tour compté');
    const [p1, p2, p3] = await Promise.all([createUser(t, 'pupil'), createUser(t, 'pupil'), createUser(t, 'pupil')]);
    await db.insert(chapterSessions).values([
      { chapterId: c.chapterId, userId: p1.id, endTime: new Date(Date.now() + 30 * 60_000) },
      { chapterId: c.chapterId, userId: p2.id, startedAt: minutesAgo(90), endTime: minutesAgo(30) },
      { chapterId: c.chapterId, userId: p3.id },
    ]);
    await db.insert(answers).values([
      { userId: p1.id, exerciseId: c.numericId, answer: '1', seq: 1 },
      { userId: p1.id, exerciseId: c.numericId, answer: '2', seq: 2 },
      { userId: p2.id, exerciseId: c.numericId, answer: '3', seq: 1, createdAt: minutesAgo(10) },
    ]);
    await db.insert(focusEvents).values([
      { chapterId: c.chapterId, userId: p1.id, eventType: 'blur' },
      { chapterId: c.chapterId, userId: p1.id, eventType: 'focus' },
      { chapterId: c.chapterId, userId: p2.id, eventType: 'blur', at: minutesAgo(5) },
    ]);
    const res = await inject(t, { method: 'GET', url: `/api/chapter/${c.chapterId}/live`, headers: admin.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      chapterId: c.chapterId,
      title: 'Tour compté',
      started: 3,
      inProgress: 2,
      finished: 1,
      savingLastMinute: 1,
      answersLastMinute: 2,
      blurEvents: 2,
      blurEventsLastMinute: 1,
      serverErrorsLastFiveMinutes: 0,
    });
    const perMinute: number[] = res.body.savesPerMinute;
    expect(perMinute).toHaveLength(15);
    expect(perMinute.reduce((a, b) => a + b, 0)).toBe(3);
    expect(perMinute[13] + perMinute[14]).toBe(2);
  });
});

/** A pupil with personal data, two answers (one graded), a PDF copy, a group and a mail token. */
async function makeRichPupil() {
  const db = t.database.db;
  const [school] = await db.insert(institutions).values({ name: 'Lycée Sophie Germain' }).returning();
  const pupil = await createUser(t, 'pupil', {
    firstName: 'Sophie',
    lastName: 'Germain',
    birthDate: '2009-04-01',
    gender: 'female',
    grade: '2nde',
    emailParent: 'parent.germain@exemple.fr',
    institutionId: school.id,
  });
  await db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: pupil.id });
  const pdf = await makePdf(1, 'Copie de Sophie');
  const body = multipart({ exercise: chapter.pdfId }, { name: 'sophie-germain.pdf', bytes: pdf });
  const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...pupil.headers, ...body.headers }, payload: body.payload });
  expect(up.status).toBe(200);
  const fileId = String(up.body.path).slice(5, -4);
  await db.insert(answers).values([
    { userId: pupil.id, exerciseId: chapter.numericId, answer: '17', seq: 1, ip: '203.0.113.7', grade: '1', graderId: admin.id },
    { userId: pupil.id, exerciseId: chapter.pdfId, answer: up.body.path, fileId, seq: 1, ip: '203.0.113.7' },
  ]);
  await db.insert(focusEvents).values({ chapterId: chapter.chapterId, userId: pupil.id, eventType: 'blur', ip: '203.0.113.7' });
  await db.execute(sql`INSERT INTO sent_mails ("to", subject, text) VALUES (${pupil.email}, 'Bienvenue', 'Bonjour Sophie')`);
  return { pupil, fileId, pdf };
}

describe('GET /api/user/:uid/export', () => {
  it.each(FORBIDDEN_ROLES)('refuses %s with %i', async (role, status) => {
    const res = await inject(t, { method: 'GET', url: `/api/user/${admin.id}/export`, headers: await loginAs(t, role) });
    expect(res.status).toBe(status);
  });

  it('answers 400 in French for a bad id and 404 for an unknown user', async () => {
    const bad = await inject(t, { method: 'GET', url: '/api/user/xyz/export', headers: admin.headers });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Identifiant d’utilisateur invalide');
    const unknown = await inject(t, {
      method: 'GET',
      url: '/api/user/00000000-0000-4000-8000-00000000dead/export',
      headers: admin.headers,
    });
    expect(unknown.status).toBe(404);
  });

  it('gives everything about the person as a JSON download, without secrets', async () => {
    const { pupil, fileId } = await makeRichPupil();
    await t.database.db
      .insert(familyAddresses)
      .values({ userId: pupil.id, address: 'parent.germain@exemple.fr', tokenHash: 'f'.repeat(64) });
    const res = await inject(t, { method: 'GET', url: `/api/user/${pupil.id}/export`, headers: admin.headers });
    expect(res.status).toBe(200);
    // Decision 134: the family address and its state, never the link's token hash.
    expect(res.body.familyAddresses).toEqual([expect.objectContaining({ address: 'parent.germain@exemple.fr', confirmed_at: null })]);
    expect(JSON.stringify(res.body)).not.toContain('f'.repeat(64));
    expect(res.headers['content-disposition']).toContain(`attachment; filename="olympe-utilisateur-${pupil.id}.json"`);
    const data = res.body;
    expect(data.user).toMatchObject({
      id: pupil.id,
      email: pupil.email,
      first_name: 'Sophie',
      last_name: 'Germain',
      email_parent: 'parent.germain@exemple.fr',
    });
    expect(data.institution.name).toBe('Lycée Sophie Germain');
    expect(data.groups).toEqual([{ id: TEACHERS_GROUP_ID, name: expect.any(String) }]);
    expect(data.answers).toHaveLength(2);
    expect(data.answers.find((a: { answer: string }) => a.answer === '17')).toMatchObject({ grade: '1', exercise_title: 'Nombre' });
    expect(data.files.map((f: { id: string }) => f.id)).toEqual([fileId]);
    expect(data.focusEvents).toHaveLength(1);
    expect(data.sentMails.map((m: { subject: string }) => m.subject)).toEqual(['Bienvenue']);
    const text = JSON.stringify(data);
    expect(text).not.toContain('password_hash');
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('token_hash');
  });
});

describe('the export and the anonymisation, for what came with results (decision 70)', () => {
  it('gives answers of a binned chapter with the date they went to the bin, and the regrade requests; anonymising empties their words', async () => {
    const db = t.database.db;
    const binned = await makeChapter(t.database.db, 'Tour à la corbeille');
    const pupil = await createUser(t, 'pupil', { firstName: 'Émilie', lastName: 'Du Châtelet' });
    const [answer] = await db
      .insert(answers)
      .values({ userId: pupil.id, exerciseId: binned.numericId, answer: '3', seq: 1, grade: '0' })
      .returning();
    await db.insert(regradeRequests).values({
      answerId: answer.id,
      chapterId: binned.chapterId,
      exerciseId: binned.numericId,
      userId: pupil.id,
      message: 'Je m’appelle Émilie, j’ai écrit 3 et non 8.',
    });
    const deletedAt = new Date('2026-11-20T10:00:00Z');
    await db.update(chapters).set({ deletedAt }).where(eq(chapters.id, binned.chapterId));

    const res = await inject(t, { method: 'GET', url: `/api/user/${pupil.id}/export`, headers: admin.headers });
    expect(res.status).toBe(200);
    expect(res.body.answers).toHaveLength(1);
    expect(new Date(res.body.answers[0].in_bin_since).toISOString()).toBe(deletedAt.toISOString());
    expect(res.body.regradeRequests).toMatchObject([{ message: 'Je m’appelle Émilie, j’ai écrit 3 et non 8.', status: 'open' }]);
    expect(res.body.sessionExtensions).toEqual([]);

    expect((await inject(t, { method: 'POST', url: `/api/user/${pupil.id}/anonymise`, headers: admin.headers })).status).toBe(200);
    const [request] = await db.select().from(regradeRequests).where(eq(regradeRequests.userId, pupil.id));
    expect(request).toMatchObject({ message: '', status: 'open' });
  });
});

describe('POST /api/user/:uid/anonymise', () => {
  it.each(FORBIDDEN_ROLES)('refuses %s with %i and changes nothing', async (role, status) => {
    const target = await createUser(t, 'pupil', { firstName: 'Intact' });
    const res = await inject(t, { method: 'POST', url: `/api/user/${target.id}/anonymise`, headers: await loginAs(t, role) });
    expect(res.status).toBe(status);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ email: target.email, firstName: 'Intact' });
  });

  it('answers 400 for a bad id, 404 for an unknown user, 403 on oneself', async () => {
    const bad = await inject(t, { method: 'POST', url: '/api/user/42/anonymise', headers: admin.headers });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Identifiant d’utilisateur invalide');
    const unknown = await inject(t, {
      method: 'POST',
      url: '/api/user/00000000-0000-4000-8000-00000000dead/anonymise',
      headers: admin.headers,
    });
    expect(unknown.status).toBe(404);
    const self = await inject(t, { method: 'POST', url: `/api/user/${admin.id}/anonymise`, headers: admin.headers });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('Vous ne pouvez pas anonymiser votre propre compte.');
    const [row] = await t.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row.isAdmin).toBe(true);
  });

  it('scrubs the person, revokes their tokens, erases their PDF, keeps answers and grades anonymously', async () => {
    const db = t.database.db;
    const { pupil, fileId } = await makeRichPupil();
    await db.insert(familyAddresses).values({ userId: pupil.id, address: 'parent.germain@exemple.fr', confirmedAt: new Date() });
    const res = await inject(t, { method: 'POST', url: `/api/user/${pupil.id}/anonymise`, headers: admin.headers });
    expect(res.status).toBe(200);
    expect(await db.select().from(familyAddresses).where(eq(familyAddresses.userId, pupil.id))).toEqual([]);
    expect(res.body).toEqual({ message: 'Compte anonymisé : ses réponses restent pour les statistiques.', filesErased: 1 });

    const [row] = await db.select().from(users).where(eq(users.id, pupil.id));
    expect(row.email).toMatch(/^anonyme-[0-9a-f-]{36}@anonyme\.invalid$/);
    expect(row).toMatchObject({
      passwordHash: null,
      firstName: null,
      lastName: null,
      birthDate: null,
      emailParent: null,
      institutionId: null,
      gender: 'female',
      grade: '2nde',
    });
    const kept = await db.select().from(answers).where(eq(answers.userId, pupil.id));
    expect(kept).toHaveLength(2);
    expect(kept.every((a) => a.ip === null)).toBe(true);
    expect(kept.find((a) => a.answer === '17')?.grade).toBe('1');
    expect(await db.select().from(groupMembers).where(eq(groupMembers.userId, pupil.id))).toEqual([]);
    const mails = await db.execute(sql`SELECT count(*)::int AS n FROM sent_mails WHERE "to" = ${pupil.email}`);
    expect((mails as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);

    // The old token and the old password are useless now.
    expect((await inject(t, { method: 'PUT', url: '/api/auth/me', headers: pupil.headers, payload: {} })).status).toBe(401);
    const login = await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: pupil.email, password: PASSWORD } });
    expect(login.status).toBe(401);
    // The copy carried the pupil's name: its bytes are gone.
    const pdf = await inject(t, { method: 'GET', url: `/api/pdfs/${fileId}.pdf`, headers: admin.headers });
    expect(pdf.status).toBe(404);

    const audit = await db.select().from(auditLog).where(eq(auditLog.targetId, pupil.id));
    expect(audit).toMatchObject([{ action: 'user.anonymise', actorId: admin.id }]);

    const again = await inject(t, { method: 'POST', url: `/api/user/${pupil.id}/anonymise`, headers: admin.headers });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Ce compte est déjà anonymisé.');
  });
});

describe('request logs', () => {
  it('carry the request id and the user id, never a password, token or answer', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const opts = loggerOptions({ ...t.config, logLevel: 'info' }, true);
    const app = Fastify({ ...opts, logger: { ...(opts.logger as object), stream } });
    app.decorate('deps', t.app.deps);
    app.decorateRequest('auth', null);
    app.addHook('onRequest', async (request) => {
      if (request.headers['x-user'])
        request.auth = {
          userId: String(request.headers['x-user']),
          isAdmin: false,
          isMember: false,
          isTeacher: false,
          institutionId: null,
        };
    });
    observeRequests(app);
    app.post('/api/answer', async (request) => {
      request.log.info('saving');
      return { ok: true };
    });
    app.get('/api/pdfs/:file', async () => ({ ok: true }));

    const saved = await app.inject({
      method: 'POST',
      url: '/api/answer',
      headers: { 'x-user': admin.id, 'x-request-id': 'proxy-id-123', authorization: 'Bearer secret-jwt' },
      payload: { answer: '31415926', password: 'Secret#2026ok' },
    });
    expect(saved.headers['x-request-id']).toBe('proxy-id-123');
    const link = await app.inject({
      method: 'GET',
      url: '/api/pdfs/x.pdf?exp=1&sig=SIGNATURE-SECRET',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(link.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await app.close();

    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(2);
    expect(completed[0]).toMatchObject({ reqId: 'proxy-id-123', userId: admin.id, route: '/api/answer', statusCode: 200 });
    expect(lines.find((l) => l.msg === 'saving')).toMatchObject({ reqId: 'proxy-id-123', userId: admin.id });
    expect(completed[1]).toMatchObject({ url: '/api/pdfs/x.pdf?exp=1&sig=[redacted]' });
    const all = JSON.stringify(lines);
    for (const secret of ['31415926', 'Secret#2026ok', 'secret-jwt', 'SIGNATURE-SECRET']) expect(all).not.toContain(secret);
  });
});

describe('production log stream', () => {
  it('writes asynchronously but loses no line when the process exits right after logging', async () => {
    const { execFile } = await import('node:child_process');
    const script = [
      "import pino from 'pino';",
      "import { productionLogStream } from './server/src/ops/logging.ts';",
      'const log = pino(productionLogStream());',
      "for (let i = 0; i < 2000; i++) log.info({ i }, 'ligne');",
      'process.exit(0);',
    ].join('\n');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: new URL('../..', import.meta.url).pathname },
        (err, out) => (err ? reject(err) : resolve(out)),
      ),
    );
    const numbers = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).i);
    expect(numbers).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });
});
