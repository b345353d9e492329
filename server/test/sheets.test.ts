import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, centerRegistrations, centers, chapters, exercises, institutions, jobs, unlabeledAnswers } from '../src/db/schema.js';
import type { FileStore } from '../src/files/store.js';
import { claimJob, enqueueJob, JOB_DEFAULTS, type Job } from '../src/jobs/queue.js';
import { runPendingJobs as runJobs } from '../src/jobs/worker.js';
import { fakeScan } from './fixtures/fake-scan.js';
import { DECODE_JOB, decodeJobHandler, READING_FAILED } from '../src/sheets/decode-job.js';
import { runPendingJobs } from '../src/sheets/jobs.js';
import { renderAnswerSheets } from '../src/sheets/render.js';
import { buildTestApp, createUser, inject, loginAs, PUPIL_PROFILE, type RoleName, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

type Headers = Record<string, string>;
let t: TestApp;
let A: string;
let B: string;
let chapterId: string;
let onlineChapterId: string;
let noPdfChapterId: string;
let ex1: string;
let ex2: string;
let teacherA: { id: string; headers: Headers };
let teacherB: { id: string; headers: Headers };
let admin: { id: string; headers: Headers };
/** Registered at centre A, in the sheets' order (by last name). */
let pupils: Array<{ id: string; lastName: string }>;

beforeAll(async () => {
  // The worker is off: tests run the queue themselves (runPendingJobs), deterministically.
  t = await buildTestApp({ env: { JOBS_WORKER: 'off' } });
  const db = t.database.db;
  [{ id: A }, { id: B }] = await db
    .insert(institutions)
    .values([{ name: 'Collège Pascal' }, { name: 'Lycée Fermat' }])
    .returning();
  [{ id: chapterId }, { id: onlineChapterId }, { id: noPdfChapterId }] = await db
    .insert(chapters)
    .values([
      { title: 'Coupe papier 2026', offline: true },
      { title: 'Coupe en ligne', offline: false },
      { title: 'Papier sans copie', offline: true },
    ])
    .returning();
  [{ id: ex1 }, { id: ex2 }] = await db
    .insert(exercises)
    .values([
      { chapterId, position: 0, title: 'Géométrie', answerFormat: 'pdf' },
      { chapterId, position: 2, title: 'Combinatoire', answerFormat: 'pdf' },
      { chapterId, position: 1, title: 'Calcul', answerFormat: 'numeric' },
      { chapterId: noPdfChapterId, position: 0, title: 'Calcul', answerFormat: 'numeric' },
      { chapterId: onlineChapterId, position: 0, title: 'Preuve', answerFormat: 'pdf' },
    ])
    .returning();
  await db.insert(centers).values([{ chapterId, institutionId: A, opened: true }]);
  teacherA = await createUser(t, 'teacher', { institutionId: A });
  teacherB = await createUser(t, 'teacher', { institutionId: B });
  admin = await createUser(t, 'admin');
  pupils = [];
  for (const lastName of ['Noether', 'Germain', 'Lovelace']) {
    const p = await createUser(t, 'pupil', { ...PUPIL_PROFILE, lastName, institutionId: lastName === 'Lovelace' ? B : A });
    pupils.push({ id: p.id, lastName });
    await db.insert(centerRegistrations).values({ chapterId, userId: p.id, institutionId: A });
  }
  pupils.sort((a, b) => a.lastName.localeCompare(b.lastName));
});
afterAll(async () => t.close());

const sheetsOf = (headers: Headers, query = '', chapter = chapterId) =>
  inject(t, { method: 'GET', url: `/api/sheets/${chapter}.pdf${query}`, headers });
const blankOf = (headers: Headers, query = '', chapter = chapterId) =>
  inject(t, { method: 'GET', url: `/api/sheets/${chapter}/blank.pdf${query}`, headers });
const linkOf = (headers: Headers, query = '', chapter = chapterId) =>
  inject(t, { method: 'GET', url: `/api/sheets/${chapter}/link${query}`, headers });
const raw = async (url: string, headers: Headers = {}) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers, body: res.body };
};
const pageCount = async (bytes: Uint8Array) => (await PDFDocument.load(bytes)).getPageCount();

describe('GET /sheets/{chapterId}.pdf (personalised answer sheets)', () => {
  it('a teacher downloads their centre’s sheets: per pupil a cover and (1 + 2 spare) pages per PDF exercise', async () => {
    const res = await raw(`/api/sheets/${chapterId}.pdf`, teacherA.headers);
    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="feuilles-reponses-coupe-papier-2026.pdf"');
    expect(await pageCount(res.bytes)).toBe(3 * (1 + 2 * 3));
  });

  it('an admin names the centre; spare pages can be chosen', async () => {
    const res = await raw(`/api/sheets/${chapterId}.pdf?institution=${A}&spare=0`, admin.headers);
    expect(res.status).toBe(200);
    expect(await pageCount(res.bytes)).toBe(3 * (1 + 2));
  });

  it.each<[RoleName, number]>([
    ['anonymous', 401],
    ['pupil', 403],
    ['member', 403],
  ])('%s gets %i', async (role, status) => {
    const res = await sheetsOf(await loginAs(t, role), `?institution=${A}`);
    expect(res.status).toBe(status);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('a teacher of another institution is refused the centre’s sheets (403), and has no pupils at theirs', async () => {
    const res = await sheetsOf(teacherB.headers, `?institution=${A}`);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Vous ne pouvez gérer que le centre de votre établissement.');
    const own = await sheetsOf(teacherB.headers);
    expect(own.status).toBe(400);
    expect(own.body.message).toBe('Aucun élève n’est inscrit dans ce centre pour ce chapitre.');
  });

  it('bad input gets a French 400; unknown chapters 404', async () => {
    expect((await sheetsOf(teacherA.headers, '?spare=9')).body).toMatchObject({
      message: expect.stringContaining('Au plus 5 pages supplémentaires'),
      code: 'bad_request',
    });
    expect((await sheetsOf(teacherA.headers, '?spare=-1')).status).toBe(400);
    expect((await sheetsOf(teacherA.headers, '?institution=pas-un-id')).status).toBe(400);
    expect((await inject(t, { method: 'GET', url: '/api/sheets/pas-un-id.pdf', headers: teacherA.headers })).status).toBe(400);
    expect((await sheetsOf(admin.headers)).body).toEqual({ message: 'Indiquez l’établissement du centre.', code: 'bad_request' });
    expect((await sheetsOf(admin.headers, `?institution=${A}`, onlineChapterId)).body).toEqual({
      message: 'Ce chapitre n’est pas une épreuve papier.',
      code: 'bad_request',
    });
    expect((await sheetsOf(admin.headers, `?institution=${A}`, noPdfChapterId)).body.message).toBe(
      'Ce chapitre n’a aucun exercice à rendre sur papier (format PDF).',
    );
    expect((await sheetsOf(admin.headers, `?institution=${A}`, randomUUID())).status).toBe(404);
    expect((await sheetsOf(admin.headers, `?institution=${randomUUID()}`)).status).toBe(404);
  });
});

describe('GET /sheets/{chapterId}/blank.pdf (blank sheet)', () => {
  it('school staff and admins download one cover and (1 + spare) pages per exercise', async () => {
    for (const headers of [teacherA.headers, teacherB.headers, admin.headers]) {
      const res = await raw(`/api/sheets/${chapterId}/blank.pdf?spare=1`, headers);
      expect(res.status).toBe(200);
      expect(await pageCount(res.bytes)).toBe(1 + 2 * 2);
    }
  });

  it.each<[RoleName, number]>([
    ['anonymous', 401],
    ['pupil', 403],
    ['member', 403],
  ])('%s gets %i', async (role, status) => {
    expect((await blankOf(await loginAs(t, role))).status).toBe(status);
  });
});

describe('GET /sheets/{chapterId}/link (download without a header)', () => {
  it('a signed link serves exactly the signed download, for a few minutes, without a header', async () => {
    const res = await linkOf(teacherA.headers, '?spare=1');
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^/api/sheets/${chapterId}\\.pdf\\?institution=${A}&spare=1&exp=\\d+&sig=`));
    const pdf = await raw(res.body.url);
    expect(pdf.status).toBe(200);
    expect(await pageCount(pdf.bytes)).toBe(3 * (1 + 2 * 2));
    // Changing what was signed, or the signature, is refused.
    expect((await raw(res.body.url.replace('spare=1', 'spare=2'))).status).toBe(403);
    expect((await raw(res.body.url.replace(`institution=${A}`, `institution=${B}`))).status).toBe(403);
    expect((await raw(res.body.url.replace(/sig=[^&]+/, 'sig=abc'))).status).toBe(403);
    const expired = res.body.url.replace(/exp=\d+/, `exp=${Math.floor(Date.now() / 1000) - 1}`);
    expect((await raw(expired)).status).toBe(403);
    // Without any signature: the route's guard.
    expect((await raw(`/api/sheets/${chapterId}.pdf?institution=${A}`)).status).toBe(401);
  });

  it('the blank sheet has its link too', async () => {
    const res = await linkOf(teacherB.headers, '?blank=1');
    expect(res.status).toBe(200);
    expect(res.body.url).toContain(`/api/sheets/${chapterId}/blank.pdf?spare=2&exp=`);
    const pdf = await raw(res.body.url);
    expect(pdf.status).toBe(200);
    expect(await pageCount(pdf.bytes)).toBe(1 + 2 * 3);
  });

  it('is refused to whom the download is refused, before any click', async () => {
    expect((await linkOf({})).status).toBe(401);
    expect((await linkOf(await loginAs(t, 'pupil'))).status).toBe(403);
    expect((await linkOf(await loginAs(t, 'member'))).status).toBe(403);
    expect((await linkOf(teacherB.headers, `?institution=${A}`)).status).toBe(403);
    expect((await linkOf(teacherB.headers)).body).toEqual({
      message: 'Aucun élève n’est inscrit dans ce centre pour ce chapitre.',
      code: 'bad_request',
    });
    expect((await linkOf(teacherA.headers, '?blank=2')).status).toBe(400);
  });
});

/** A teacher of centre A uploads a scan and files it for sorting, as the centre panel does. */
async function fileScan(bytes: Uint8Array, name: string): Promise<string> {
  const { payload, headers: form } = multipart({ chapter: chapterId }, { name, bytes });
  const up = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...teacherA.headers, ...form }, payload });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const filed = await inject(t, {
    method: 'POST',
    url: `/api/answer/unlabeled/${chapterId}`,
    headers: teacherA.headers,
    payload: { answer: up.body.path },
  });
  expect(filed.status).toBe(201);
  return filed.body._id;
}

const copyRow = async (id: string) => (await t.database.db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, id)))[0];
const jobOf = async (id: string) => (await t.database.db.select().from(jobs)).find((j) => j.payload.unlabeledId === id)!;

describe('uploaded scans sort themselves', () => {
  /** Centre A's sheets, 1 spare page: per pupil a cover then 2 pages per exercise (15 pages). */
  let sheets: Buffer;
  /** Printed page i: pupil (sheets order), exercise and page; covers have no exercise. */
  const pageInfo = (i: number) => {
    const perPupil = 1 + 2 * 2;
    const pupil = pupils[Math.floor(i / perPupil)].id;
    const k = i % perPupil;
    return k === 0 ? { user: null, exercises: [] as string[] } : { user: pupil, exercises: [k <= 2 ? ex1 : ex2] };
  };
  /** As stored: an answer page also keeps the page number printed in its code (decision 108). */
  const storedInfo = (i: number) => {
    const k = i % (1 + 2 * 2);
    return k === 0 ? pageInfo(i) : { ...pageInfo(i), sheetPage: ((k - 1) % 2) + 1 };
  };

  beforeAll(async () => {
    sheets = (await raw(`/api/sheets/${chapterId}.pdf?institution=${A}&spare=1`, admin.headers)).bytes;
    expect(await pageCount(sheets)).toBe(15);
  });

  it('every recognised page is suggested with its pupil, exercise and upright turn; torn and foreign codes stay for Triage', async () => {
    // A sheet of another chapter, genuine (same server secret), slipped into the pile.
    const other = await renderAnswerSheets({
      secret: t.config.jwtSecret,
      chapter: { id: onlineChapterId, title: 'Autre' },
      centreName: null,
      exercises: [{ id: randomUUID(), title: 'Autre' }],
      pupils: [{ id: pupils[0].id, firstName: 'X', lastName: 'Y' }],
      spare: 0,
    });
    const turns = [0, 90, 180, 270] as const;
    const pages = Array.from({ length: 10 }, (_, i) => ({ page: i, turn: turns[i % 4], skew: i % 2 ? 2 : -2, noise: 0.2, torn: i === 3 }));
    const scan = await PDFDocument.load(await fakeScan(sheets, pages));
    const foreign = await PDFDocument.load(await fakeScan(other, [{ page: 1, turn: 180, noise: 0.2 }]));
    scan.addPage((await scan.copyPages(foreign, [0]))[0]);
    const copyId = await fileScan(await scan.save(), 'salle-1.pdf');

    expect((await copyRow(copyId)).suggestions).toBeNull();
    expect((await jobOf(copyId)).status).toBe('pending');
    expect(await runPendingJobs(t.app.deps)).toBe(1);

    const copy = await copyRow(copyId);
    const expected = [0, 1, 2, 4, 5, 6, 7, 8, 9].map((i) => ({ pageNum: i + 1, ...pageInfo(i), rotation: (360 - turns[i % 4]) % 360 }));
    expect(copy.suggestions).toEqual(
      [0, 1, 2, 4, 5, 6, 7, 8, 9].map((i) => ({ pageNum: i + 1, ...storedInfo(i), rotation: (360 - turns[i % 4]) % 360 })),
    );
    expect(copy.labeledAt).toBeNull();
    const job = await jobOf(copyId);
    expect(job).toMatchObject({ status: 'done', attempts: 1, error: null });
    expect(job.result).toMatchObject({ pages: 11, read: 9, unreadable: 1, foreign: 1, forged: 0, recognised: 9, labeled: false });

    // The sorting page offers them to confirm.
    const member = await createUser(t, 'member');
    const selected = await inject(t, { method: 'GET', url: `/api/answer/unlabeled/select/${chapterId}`, headers: member.headers });
    if (selected.status === 200 && selected.body?.copy?._id === copyId) {
      expect(selected.body.copy.suggestions).toEqual(expected);
    }
  }, 120_000);

  it('a copy whose every page is recognised is labelled at once: one upright answer per pupil and exercise', async () => {
    const turns = [180, 90, 0, 270, 180] as const;
    const copyId = await fileScan(
      await fakeScan(
        sheets,
        turns.map((turn, i) => ({ page: 5 + i, turn, skew: 1.5, noise: 0.15, scribbles: true })),
      ),
      'salle-2.pdf',
    );
    await runPendingJobs(t.app.deps);

    const copy = await copyRow(copyId);
    expect(copy.suggestions).toHaveLength(5);
    const job = await jobOf(copyId);
    expect(job.result).toMatchObject({ pages: 5, read: 5, recognised: 5, labeled: true });
    expect(copy.labeledAt).not.toBeNull();
    expect(copy.labeledBy).toBe(teacherA.id);
    const pupil = pupils[1].id;
    const made = await t.database.db.select().from(answers).where(eq(answers.userId, pupil));
    expect(made.map((a) => a.exerciseId).sort()).toEqual([ex1, ex2].sort());
    // Each answer's pages are turned upright: the scan's turn undone through /Rotate.
    const store = (await import('../src/files/store-select.js')).openFileStore(t.app.deps);
    for (const a of made) {
      const doc = await PDFDocument.load((await store.get(a.fileId!))!);
      const first = a.exerciseId === ex1 ? 1 : 3;
      expect(doc.getPages().map((p) => p.getRotation().angle)).toEqual([0, 1].map((k) => (360 - turns[first + k]) % 360));
    }
  });

  it('a complete copy a sorter opened meanwhile is left to them, pre-filled', async () => {
    const copyId = await fileScan(await fakeScan(sheets, [{ page: 11, turn: 90 }]), 'salle-3.pdf');
    const sorter = await createUser(t, 'member');
    await t.database.db
      .update(unlabeledAnswers)
      .set({ reservedBy: sorter.id, reservedAt: new Date() })
      .where(eq(unlabeledAnswers.id, copyId));
    await runPendingJobs(t.app.deps);
    const copy = await copyRow(copyId);
    expect(copy.suggestions).toEqual([{ pageNum: 1, ...storedInfo(11), rotation: 270 }]);
    expect(copy.labeledAt).toBeNull();
    expect((await jobOf(copyId)).result).toMatchObject({ read: 1, labeled: false });
  });

  it('a blank sheet gives the exercise and turn; the pupil is left to the sorter', async () => {
    const blank = (await raw(`/api/sheets/${chapterId}/blank.pdf?spare=0`, teacherA.headers)).bytes;
    const copyId = await fileScan(
      await fakeScan(blank, [
        { page: 0, turn: 90 },
        { page: 1, turn: 270, noise: 0.15 },
      ]),
      'vierge.pdf',
    );
    await runPendingJobs(t.app.deps);
    expect((await copyRow(copyId)).suggestions).toEqual([
      { pageNum: 1, user: null, exercises: [], rotation: 270 },
      { pageNum: 2, user: null, exercises: [ex1], rotation: 90, sheetPage: 1 },
    ]);
    expect((await jobOf(copyId)).result).toMatchObject({ labeled: false });
  });

  it('a PDF printed without a picture (vector pages) is rendered and read like a scan', async () => {
    const res = await raw(`/api/sheets/${chapterId}.pdf?institution=${A}&spare=0`, admin.headers);
    const copyId = await fileScan(res.bytes, 'imprime-en-pdf.pdf');
    // Held by a sorter: suggestions only, the pupils' answers of the tests above stay as they are.
    const sorter = await createUser(t, 'member');
    await t.database.db
      .update(unlabeledAnswers)
      .set({ reservedBy: sorter.id, reservedAt: new Date() })
      .where(eq(unlabeledAnswers.id, copyId));
    await runPendingJobs(t.app.deps);
    const copy = await copyRow(copyId);
    expect(copy.suggestions?.map((s) => s.pageNum)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(copy.pageReadings).toEqual(Array(9).fill('read'));
    expect((await jobOf(copyId)).result).toMatchObject({ pages: 9, read: 9, 'no-image': 0, labeled: false });
  }, 120_000);
});

describe('job queue', () => {
  const silent = { info() {}, error() {} } as never;

  it('runs the oldest job first; two claims never take the same job', async () => {
    const db = t.database.db;
    const kind = `test.${randomUUID()}`;
    const second = await enqueueJob(db, kind, { n: 2 });
    const first = await enqueueJob(db, kind, { n: 1 });
    // Added a minute earlier (two inserts may share a timestamp on PGlite's clock).
    await db
      .update(jobs)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(jobs.id, first));
    const opts = { kinds: [kind], ...JOB_DEFAULTS };
    const [a, b, c] = await Promise.all([claimJob(db, opts), claimJob(db, opts), claimJob(db, opts)]);
    expect([a?.id, b?.id, c?.id].filter(Boolean).sort()).toEqual([first, second].sort());
    expect(a?.id ?? b?.id).toBe(first);
  });

  it('a job left running by a stopped instance is taken again once stale; attempts are capped', async () => {
    const db = t.database.db;
    const kind = `test.${randomUUID()}`;
    const id = await enqueueJob(db, kind, {});
    const seen: number[] = [];
    const handlers = {
      [kind]: async (job: { attempts: number }) => {
        seen.push(job.attempts);
        return { ok: true };
      },
    };
    // Claimed, then the instance "stopped": running, locked 11 minutes ago.
    await db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(jobs.id, id));
    expect(await runJobs({ db, log: silent }, handlers)).toBe(1);
    expect(seen).toEqual([2]);
    expect((await db.select().from(jobs).where(eq(jobs.id, id)))[0]).toMatchObject({ status: 'done', attempts: 2, result: { ok: true } });

    // Recently locked: another instance is on it, left alone.
    const busy = await enqueueJob(db, kind, {});
    await db.update(jobs).set({ status: 'running', attempts: 1, lockedAt: new Date() }).where(eq(jobs.id, busy));
    expect(await runJobs({ db, log: silent }, handlers)).toBe(0);

    // Abandoned after its last attempt: failed, not retried.
    const dead = await enqueueJob(db, kind, {});
    await db
      .update(jobs)
      .set({ status: 'running', attempts: 3, lockedAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(jobs.id, dead));
    expect(await runJobs({ db, log: silent }, handlers)).toBe(0);
    expect((await db.select().from(jobs).where(eq(jobs.id, dead)))[0].status).toBe('failed');
  });

  it('a failing job is retried, then marked failed with its error after 3 attempts', async () => {
    const db = t.database.db;
    const kind = `test.${randomUUID()}`;
    const id = await enqueueJob(db, kind, {});
    let calls = 0;
    const handlers = {
      [kind]: async () => {
        calls++;
        throw new Error('boom');
      },
    };
    await runJobs({ db, log: silent }, handlers);
    expect(calls).toBe(3);
    const [row] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, id)));
    expect(row).toMatchObject({ status: 'failed', attempts: 3, error: 'boom' });
    expect(row.finishedAt).not.toBeNull();
  });

  it('a scan whose reading fails at every try says so on its copy, for the sorter; earlier tries leave it waiting', async () => {
    const db = t.database.db;
    const blank = (await raw(`/api/sheets/${chapterId}/blank.pdf?spare=0`, teacherA.headers)).bytes;
    const copyId = await fileScan(await fakeScan(blank, [{ page: 0 }]), 'illisible.pdf');
    const seen: Array<string | null> = [];
    const broken = decodeJobHandler({
      db,
      store: { get: async () => Promise.reject(new Error('disque indisponible')) } as unknown as FileStore,
      secret: 'x',
    });
    const handler = async (job: Job) => {
      seen.push((await copyRow(copyId)).readError);
      return broken(job);
    };
    await runJobs({ db, log: silent }, { [DECODE_JOB]: handler });
    expect(seen).toEqual([null, null, null]);
    expect((await jobOf(copyId)).status).toBe('failed');
    expect((await copyRow(copyId)).readError).toBe(READING_FAILED);
  });
});

describe('background worker', () => {
  it('reads a filed scan without anyone running the queue, and stops with the app', async () => {
    const w = await buildTestApp({ env: { JOBS_WORKER: 'on' } });
    try {
      const db = w.database.db;
      const [{ id: school }] = await db.insert(institutions).values({ name: 'École Galois' }).returning();
      const [{ id: chapter }] = await db.insert(chapters).values({ title: 'Papier', offline: true }).returning();
      const [{ id: exercise }] = await db
        .insert(exercises)
        .values({ chapterId: chapter, title: 'Preuve', answerFormat: 'pdf' })
        .returning();
      const teacher = await createUser(w, 'teacher', { institutionId: school });
      const pupil = await createUser(w, 'pupil', { ...PUPIL_PROFILE, institutionId: school });
      await db.insert(centerRegistrations).values({ chapterId: chapter, userId: pupil.id, institutionId: school });
      const sheets = await w.app.inject({ method: 'GET', url: `/api/sheets/${chapter}.pdf?spare=0`, headers: teacher.headers });
      const { payload, headers: form } = multipart(
        { chapter },
        { name: 'scan.pdf', bytes: await fakeScan(sheets.rawPayload, [{ page: 1, turn: 180 }]) },
      );
      const up = await inject(w, { method: 'POST', url: '/api/pdfs', headers: { ...teacher.headers, ...form }, payload });
      const filed = await inject(w, {
        method: 'POST',
        url: `/api/answer/unlabeled/${chapter}`,
        headers: teacher.headers,
        payload: { answer: up.body.path },
      });
      const deadline = Date.now() + 60_000;
      let row;
      do {
        await new Promise((r) => setTimeout(r, 100));
        [row] = await db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, filed.body._id));
      } while (!row.labeledAt && Date.now() < deadline);
      expect(row.suggestions).toEqual([{ pageNum: 1, user: pupil.id, exercises: [exercise], rotation: 180, sheetPage: 1 }]);
      expect(row.labeledAt).not.toBeNull();
    } finally {
      await w.close();
    }
  }, 90_000);
});
