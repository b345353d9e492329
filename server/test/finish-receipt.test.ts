import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, chapterSessions, chapters, exercises, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * « Terminer l'épreuve » and the receipt: a pupil ends their timed test early, their answers become
 * read-only at once, and a receipt (with a code staff can recompute) lists what the server holds.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/;

async function chapterWith(duration: number | null, offline = false) {
  const [chapter] = await db().insert(chapters).values({ title: 'Tour 1', offline }).returning();
  await db().insert(accessGroups).values({ chapterId: chapter.id, position: 0, timeDuration: duration });
  const [numeric, pdf] = await db()
    .insert(exercises)
    .values([
      { chapterId: chapter.id, position: 0, title: 'Somme', answerFormat: 'numeric' },
      { chapterId: chapter.id, position: 1, title: 'Preuve', answerFormat: 'pdf' },
    ])
    .returning();
  await db()
    .insert(statementVersions)
    .values([
      { exerciseId: numeric.id, position: 0, content: 'Combien ?', answer: '12' },
      { exerciseId: pdf.id, position: 0, content: 'Démontrer.' },
    ]);
  return { chapterId: chapter.id, numericId: numeric.id, pdfId: pdf.id };
}

const pupil = async () => createUser(t, 'pupil', { ...PUPIL_PROFILE });
const start = (chapterId: string, headers: Headers) => inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers });
const finish = (chapterId: string, headers: Headers) => inject(t, { method: 'POST', url: `/api/chapter/finish/${chapterId}`, headers });
const state = (chapterId: string, headers: Headers) => inject(t, { method: 'GET', url: `/api/chapter/start/${chapterId}`, headers });
const save = (exerciseId: string, answer: string, seq: number, headers: Headers) =>
  inject(t, { method: 'POST', url: '/api/answer', headers, payload: { exerciseId, answer, seq } });
const receipt = (chapterId: string, headers: Headers, user?: string) =>
  inject(t, { method: 'GET', url: `/api/chapter/receipt/${chapterId}${user ? `?user=${user}` : ''}`, headers });

describe('POST /chapter/finish/{id}', () => {
  it('ends a running timed session now: the state is over and a save right after is refused, even one the memo would have let through', async () => {
    const { chapterId, numericId } = await chapterWith(60);
    const p = await pupil();
    expect((await start(chapterId, p.headers)).status).toBe(200);
    // Two saves: the second goes through the memoised fast path, which must notice the finish.
    expect((await save(numericId, '11', 1, p.headers)).status).toBe(200);
    expect((await save(numericId, '12', 2, p.headers)).status).toBe(200);
    const before = Date.now();
    const res = await finish(chapterId, p.headers);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('after');
    expect(res.body.remainingTime).toBe(0);
    expect(Date.parse(res.body.finishedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.deadline).toBe(res.body.finishedAt);
    const refused = await save(numericId, '13', 3, p.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('L’épreuve est terminée.');
    expect((await state(chapterId, p.headers)).body).toMatchObject({ status: 'after', remainingTime: 0, finishedAt: res.body.finishedAt });
    // The live page and the running-session checks read end_time: it is the finish.
    const [row] = await db()
      .select()
      .from(chapterSessions)
      .where(and(eq(chapterSessions.chapterId, chapterId), eq(chapterSessions.userId, p.id)));
    expect(row.endTime?.toISOString()).toBe(res.body.finishedAt);
    const current = await inject(t, { method: 'GET', url: `/api/answer/chapter/${chapterId}`, headers: p.headers });
    expect(current.body.map((a: { answer: string }) => a.answer)).toEqual(['12']);
  });

  it('answers 409 in French when the session is not started, already over, or untimed; 403 for staff', async () => {
    const { chapterId } = await chapterWith(60);
    const p = await pupil();
    const notStarted = await finish(chapterId, p.headers);
    expect(notStarted.status).toBe(409);
    expect(notStarted.body.message).toBe('Vous n’avez pas commencé cette épreuve : il n’y a rien à terminer.');
    await start(chapterId, p.headers);
    expect((await finish(chapterId, p.headers)).status).toBe(200);
    const again = await finish(chapterId, p.headers);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('L’épreuve est déjà terminée.');

    const untimed = await chapterWith(null);
    const untimedRes = await finish(untimed.chapterId, p.headers);
    expect(untimedRes.status).toBe(409);
    expect(untimedRes.body.message).toMatch(/pas en temps limité/);

    const admin = await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Lovelace' });
    const staff = await finish(chapterId, admin.headers);
    expect(staff.status).toBe(403);
    expect(staff.body.message).toBe('Seuls les élèves qui passent l’épreuve peuvent la terminer.');
  });

  it('is reopened by an incident extension added after the finish: the pupil gets their own end back, plus the minutes', async () => {
    const { chapterId, numericId } = await chapterWith(60);
    const p = await pupil();
    await start(chapterId, p.headers);
    await finish(chapterId, p.headers);
    const admin = await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Lovelace' });
    const ext = await inject(t, {
      method: 'POST',
      url: `/api/chapter/${chapterId}/extension`,
      headers: admin.headers,
      payload: { user: p.id, minutes: 10, reason: 'Terminé par erreur pendant la coupure' },
    });
    expect(ext.status).toBe(200);
    const reopened = await state(chapterId, p.headers);
    expect(reopened.body.status).toBe('started');
    expect(reopened.body.finishedAt).toBeUndefined();
    // 60 minutes from the start plus the 10 added: about 70 minutes left.
    expect(reopened.body.remainingTime).toBeGreaterThan(69 * 60);
    expect(reopened.body.remainingTime).toBeLessThanOrEqual(70 * 60);
    const [row] = await db()
      .select()
      .from(chapterSessions)
      .where(and(eq(chapterSessions.chapterId, chapterId), eq(chapterSessions.userId, p.id)));
    expect(row.finishedAt).toBeNull();
    expect(row.endTime?.toISOString()).toBe(reopened.body.deadline);
    expect((await save(numericId, '7', 5, p.headers)).status).toBe(200);
  });
});

describe('GET /chapter/receipt/{id}', () => {
  it('is refused while the test runs, then lists each exercise with the current answer and its server time, and a code', async () => {
    const { chapterId, numericId, pdfId } = await chapterWith(60);
    const p = await pupil();
    await start(chapterId, p.headers);
    await save(numericId, '11', 5, p.headers);
    await save(numericId, '12', 10, p.headers);
    // An older seq arriving late stays in the history but is not the current answer.
    await save(numericId, '10', 7, p.headers);
    const running = await receipt(chapterId, p.headers);
    expect(running.status).toBe(409);
    expect(running.body.message).toBe('Le reçu est disponible une fois l’épreuve terminée.');
    await finish(chapterId, p.headers);

    const res = await receipt(chapterId, p.headers);
    expect(res.status).toBe(200);
    expect(res.body.finished).toBe(true);
    expect(res.body.chapter.title).toBe('Tour 1');
    expect(res.body.lines.map((l: { title: string; position: number; answer: string | null }) => [l.title, l.position, l.answer])).toEqual([
      ['Somme', 0, '12'],
      ['Preuve', 1, null],
    ]);
    const [stored] = await db()
      .select()
      .from(answers)
      .where(and(eq(answers.exerciseId, numericId), eq(answers.seq, 10)));
    expect(res.body.lines[0].timestamp).toBe(stored.createdAt.toISOString());
    expect(res.body.lines[1].exercise).toBe(pdfId);
    expect(res.body.code).toMatch(CODE);
    // The same list gives the same code.
    expect((await receipt(chapterId, p.headers)).body.code).toBe(res.body.code);
  });

  it('is recomputed for admins and members with ?user=, to the same code; nobody else may ask for another pupil', async () => {
    const { chapterId, numericId } = await chapterWith(60);
    const p = await pupil();
    const other = await pupil();
    await start(chapterId, p.headers);
    await save(numericId, '42', 1, p.headers);
    await finish(chapterId, p.headers);
    const own = (await receipt(chapterId, p.headers)).body;
    const admin = await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Lovelace' });
    const member = await createUser(t, 'member', { firstName: 'Emmy', lastName: 'Noether' });
    const teacher = await createUser(t, 'teacher', { firstName: 'Sophie', lastName: 'Germain' });
    for (const staff of [admin, member]) {
      const res = await receipt(chapterId, staff.headers, p.id);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(own.code);
      expect(res.body.lines).toEqual(own.lines);
    }
    expect((await receipt(chapterId, admin.headers)).status).toBe(400);
    expect((await receipt(chapterId, other.headers, p.id)).status).toBe(403);
    expect((await receipt(chapterId, teacher.headers, p.id)).status).toBe(403);
    // Another pupil's receipt of the same answers would not carry the same code.
    await start(chapterId, other.headers);
    await save(numericId, '42', 1, other.headers);
    await finish(chapterId, other.headers);
    expect((await receipt(chapterId, other.headers)).body.code).not.toBe(own.code);
  });

  it('no longer matches once an answer changed after the end (an extension, then a new save)', async () => {
    const { chapterId, numericId } = await chapterWith(60);
    const p = await pupil();
    await start(chapterId, p.headers);
    await save(numericId, '42', 1, p.headers);
    await finish(chapterId, p.headers);
    const first = (await receipt(chapterId, p.headers)).body.code;
    const admin = await createUser(t, 'admin', { firstName: 'Ada', lastName: 'Lovelace' });
    await inject(t, {
      method: 'POST',
      url: `/api/chapter/${chapterId}/extension`,
      headers: admin.headers,
      payload: { user: p.id, minutes: 5, reason: 'Incident' },
    });
    expect((await save(numericId, '43', 2, p.headers)).status).toBe(200);
    await finish(chapterId, p.headers);
    const second = await receipt(chapterId, admin.headers, p.id);
    expect(second.body.lines[0].answer).toBe('43');
    expect(second.body.code).not.toBe(first);
  });

  it('is given when time ran out, not only after a finish; never for a paper chapter', async () => {
    const { chapterId, numericId } = await chapterWith(60);
    const p = await pupil();
    await start(chapterId, p.headers);
    await save(numericId, '5', 1, p.headers);
    // Started two hours ago: the hour is over.
    await db()
      .update(chapterSessions)
      .set({ startedAt: new Date(Date.now() - 2 * 3600_000), endTime: new Date(Date.now() - 3600_000) })
      .where(eq(chapterSessions.userId, p.id));
    const res = await receipt(chapterId, p.headers);
    expect(res.status).toBe(200);
    expect(res.body.finished).toBe(false);
    expect(res.body.lines[0].answer).toBe('5');
    expect(Math.abs(Date.parse(res.body.endedAt) - (Date.now() - 3600_000))).toBeLessThan(60_000);

    const paper = await chapterWith(null, true);
    const paperRes = await receipt(paper.chapterId, p.headers);
    expect(paperRes.status).toBe(409);
  });
});
