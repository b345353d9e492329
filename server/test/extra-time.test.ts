import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, auditLog, chapters, exercises, statementVersions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * Extra time (tiers-temps) and incident extensions: an admin gives one pupil more time, on every
 * timed chapter or on one chapter after an incident; nobody else can, and nobody else gets it.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Headers = Record<string, string>;
const db = () => t.database.db;

async function timedChapter(duration: number, accessEnd: Date | null = null) {
  const [chapter] = await db().insert(chapters).values({ title: 'Tour 1' }).returning();
  await db().insert(accessGroups).values({ chapterId: chapter.id, position: 0, timeDuration: duration, accessEnd });
  const [exercise] = await db()
    .insert(exercises)
    .values({ chapterId: chapter.id, position: 0, title: 'Somme', answerFormat: 'numeric' })
    .returning();
  await db().insert(statementVersions).values({ exerciseId: exercise.id, position: 0, content: 'Combien ?', answer: '12' });
  return { chapterId: chapter.id, exerciseId: exercise.id };
}

const start = (chapterId: string, headers: Headers) => inject(t, { method: 'POST', url: `/api/chapter/start/${chapterId}`, headers });
const state = (chapterId: string, headers: Headers) => inject(t, { method: 'GET', url: `/api/chapter/start/${chapterId}`, headers });
const setExtra = (headers: Headers, uid: string, payload: Record<string, unknown>) =>
  inject(t, { method: 'PUT', url: `/api/user/${uid}/extra-time`, headers, payload });
const extend = (headers: Headers, chapterId: string, payload: Record<string, unknown>) =>
  inject(t, { method: 'POST', url: `/api/chapter/${chapterId}/extension`, headers, payload });
const save = (headers: Headers, exerciseId: string, answer: string, seq: number) =>
  inject(t, { method: 'POST', url: '/api/answer', headers, payload: { exerciseId, answer, seq } });

describe('extra time (tiers-temps)', () => {
  it('gives that pupil duration × (1 + percent/100) and pushes their own window end back, no one else', async () => {
    const windowEnd = new Date(Date.now() + 20 * 60_000);
    const { chapterId } = await timedChapter(60, windowEnd);
    const admin = await createUser(t, 'admin');
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const classmate = await createUser(t, 'pupil', PUPIL_PROFILE);
    const res = await setExtra(admin.headers, pupil.id, { percent: 50 });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Temps supplémentaire de 50 % enregistré pour Sophie Germain');

    const mine = (await start(chapterId, pupil.headers)).body;
    const theirs = (await start(chapterId, classmate.headers)).body;
    // 60 min capped by a window closing in 20 min; the pupil's own window closes 30 min later.
    expect(theirs.remainingTime).toBeLessThanOrEqual(20 * 60);
    expect(theirs.remainingTime).toBeGreaterThan(19 * 60);
    expect(mine.remainingTime).toBeGreaterThan(49 * 60);
    expect(mine.remainingTime).toBeLessThanOrEqual(50 * 60);
    expect(new Date(mine.accessEnd).getTime()).toBe(windowEnd.getTime() + 30 * 60_000);
    expect(new Date(mine.deadline).getTime()).toBe(new Date(mine.endTime).getTime());
    expect(new Date(theirs.accessEnd).getTime()).toBe(windowEnd.getTime());

    const member = await inject(t, { method: 'GET', url: `/api/user/${pupil.id}`, headers: admin.headers });
    expect(member.body.extraTimePercent).toBe(50);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.extra-time'), eq(auditLog.targetId, pupil.id)));
    expect(audit).toMatchObject({ actorId: admin.id, details: { percent: 50, previous: 0 } });
  });

  it('refuses bad values with a French 400 and changes nothing', async () => {
    const admin = await createUser(t, 'admin');
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    for (const [payload, message] of [
      [{ percent: 201 }, 'Le temps supplémentaire ne peut pas dépasser 200 %.'],
      [{ percent: -1 }, 'Le temps supplémentaire ne peut pas être négatif.'],
      [{ percent: 33.3 }, 'Le temps supplémentaire doit être un nombre entier de pour cent.'],
      [{ percent: '33' }, 'Le temps supplémentaire doit être un nombre (en pourcentage).'],
    ] as const) {
      const res = await setExtra(admin.headers, pupil.id, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const me = await inject(t, { method: 'PUT', url: '/api/auth/me', headers: pupil.headers, payload: {} });
    expect(me.body.extraTimePercent).toBe(0);
    expect((await setExtra(admin.headers, '00000000-0000-4000-8000-000000000000', { percent: 10 })).status).toBe(404);
  });

  it('cannot be given by a pupil to themself, nor by a corrector or a teacher', async () => {
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    for (const role of ['pupil', 'member', 'teacher'] as const) {
      const caller = role === 'pupil' ? pupil : await createUser(t, role);
      expect((await setExtra(caller.headers, pupil.id, { percent: 100 })).status, role).toBe(403);
    }
    expect((await setExtra({}, pupil.id, { percent: 100 })).status).toBe(401);
  });
});

describe('incident extensions', () => {
  it('reopens an ended session for that pupil, with who, when and why in the audit log and on the live page', async () => {
    const { chapterId, exerciseId } = await timedChapter(30);
    const admin = await createUser(t, 'admin', { firstName: 'Alice', lastName: 'Admin' });
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    await start(chapterId, pupil.headers);
    // The computer crashed: the session ended 5 minutes ago.
    await db().execute(sql`UPDATE chapter_sessions SET started_at = now() - interval '35 minutes', end_time = now() - interval '5 minutes'
      WHERE chapter_id = ${chapterId} AND user_id = ${pupil.id}`);
    expect((await state(chapterId, pupil.headers)).body.status).toBe('after');
    expect((await save(pupil.headers, exerciseId, '12', 1)).status).toBe(403);

    const res = await extend(admin.headers, chapterId, { user: pupil.id, minutes: 10, reason: 'Panne de courant salle 3' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('10 minutes ajoutées pour Sophie Germain');
    const reopened = (await state(chapterId, pupil.headers)).body;
    expect(reopened.status).toBe('started');
    expect(reopened.remainingTime).toBeGreaterThan(4 * 60);
    expect(reopened.remainingTime).toBeLessThanOrEqual(5 * 60);
    expect((await save(pupil.headers, exerciseId, '12', 2)).status).toBe(200);

    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'session.extension'), eq(auditLog.targetId, pupil.id)));
    expect(audit).toMatchObject({ actorId: admin.id, details: { chapterId, minutes: 10, reason: 'Panne de courant salle 3' } });
    const live = await inject(t, { method: 'GET', url: `/api/chapter/${chapterId}/live`, headers: admin.headers });
    expect(live.body.extensions).toMatchObject([
      { user: { _id: pupil.id }, minutes: 10, reason: 'Panne de courant salle 3', by: 'Alice Admin' },
    ]);
    expect(live.body.inProgress).toBe(1);
  });

  it('counts pupils with extra time on the live page', async () => {
    const { chapterId } = await timedChapter(30);
    const admin = await createUser(t, 'admin');
    const pupils = await Promise.all([0, 1, 2].map(() => createUser(t, 'pupil', PUPIL_PROFILE)));
    await setExtra(admin.headers, pupils[0].id, { percent: 33 });
    for (const p of pupils) await start(chapterId, p.headers);
    const live = await inject(t, { method: 'GET', url: `/api/chapter/${chapterId}/live`, headers: admin.headers });
    expect(live.body).toMatchObject({ started: 3, extraTimePupils: 1 });
  });

  it('refuses bad bodies in French, unknown chapters and pupils, and every caller but an admin', async () => {
    const { chapterId } = await timedChapter(30);
    const admin = await createUser(t, 'admin');
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const bad = [
      [{ user: pupil.id, minutes: 0, reason: 'x' }, 'Ajoutez au moins une minute.'],
      [{ user: pupil.id, minutes: 601, reason: 'x' }, 'Une prolongation ne peut pas dépasser 600 minutes.'],
      [{ user: pupil.id, minutes: 5, reason: '   ' }, 'Indiquez la raison de la prolongation.'],
      [{ user: 'moi', minutes: 5, reason: 'x' }, 'Identifiant d’élève invalide.'],
      [{ minutes: 5, reason: 'x' }, 'Indiquez l’élève (son e-mail).'],
    ] as const;
    for (const [payload, message] of bad) {
      const res = await extend(admin.headers, chapterId, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await extend(admin.headers, unknown, { user: pupil.id, minutes: 5, reason: 'x' })).status).toBe(404);
    expect((await extend(admin.headers, chapterId, { user: unknown, minutes: 5, reason: 'x' })).status).toBe(404);
    const noAccount = await extend(admin.headers, chapterId, { email: 'personne@exemple.fr', minutes: 5, reason: 'x' });
    expect(noAccount).toMatchObject({ status: 404, body: { message: 'Aucun compte n’a l’adresse personne@exemple.fr.' } });
    // An exam officer names the pupil by e-mail, as typed.
    const byEmail = await extend(admin.headers, chapterId, {
      email: ` ${pupil.email.toUpperCase()} `,
      minutes: 5,
      reason: 'Ordinateur bloqué',
    });
    expect(byEmail.status).toBe(200);
    for (const role of ['pupil', 'member', 'teacher'] as const) {
      const caller = role === 'pupil' ? pupil : await createUser(t, role);
      expect((await extend(caller.headers, chapterId, { user: pupil.id, minutes: 5, reason: 'x' })).status, role).toBe(403);
    }
  });
});
