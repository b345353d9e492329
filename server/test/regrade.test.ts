import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, auditLog, chapters, gradeAudit, gradings, regradeRequests } from '../src/db/schema.js';
import { insertChapter } from './fixtures/chapter.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
let member: { id: string; headers: Record<string, string> };
beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
  member = await createUser(t, 'member', { firstName: 'Paul', lastName: 'Erdős' });
});
afterAll(async () => t.close());

const db = () => t.database.db;
const HOUR = 3_600_000;
let seq = 1;

/** A chapter (published unless told) with two numeric exercises worth 5 points; the pupil answered both, graded 2. */
async function setup(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const {
    chapterId,
    exerciseIds: [e1, e2],
  } = await insertChapter(db(), {
    fields: { regradeUntil: new Date(Date.now() + 24 * HOUR), ...fields },
    openToAll: true,
    exercises: [
      { title: 'Somme', answerFormat: 'numeric', maxPoints: 5, versions: [{ content: 'A', answer: '1' }] },
      { title: 'Produit', answerFormat: 'numeric', maxPoints: 5, versions: [{ content: 'B', answer: '2' }] },
    ],
  });
  const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, firstName: 'Sophie', lastName: 'Germain' });
  const graded = { grade: '2', gradeComment: 'Calcul incomplet', gradeTimestamp: new Date(Date.now() - HOUR), graderId: member.id };
  const [a1, a2] = await db()
    .insert(answers)
    .values([
      { userId: pupil.id, exerciseId: e1, answer: '1', seq: seq++, ...graded },
      { userId: pupil.id, exerciseId: e2, answer: '3', seq: seq++, ...graded },
    ])
    .returning();
  return { chapterId, e1, e2, pupil, a1: a1.id, a2: a2.id };
}

const ask = (headers: Record<string, string>, answerId: string, message = 'Mon calcul est juste, voyez la ligne 3.') =>
  inject(t, { method: 'POST', url: '/api/regrade', headers, payload: { answerId, message } });

describe('POST /regrade', () => {
  it('takes a pupil’s request on their own answer once per exercise, audited', async () => {
    const s = await setup();
    const res = await ask(s.pupil.headers, s.a1);
    expect(res).toMatchObject({ status: 201, body: { message: 'Demande de réexamen envoyée' } });
    const again = await ask(s.pupil.headers, s.a1);
    expect(again).toMatchObject({ status: 409, body: { message: 'Une demande de réexamen est déjà en cours pour cet exercice.' } });
    // Another exercise of the same chapter is its own request.
    expect((await ask(s.pupil.headers, s.a2)).status).toBe(201);
    const [row] = await db().select().from(regradeRequests).where(eq(regradeRequests.id, res.body._id));
    expect(row).toMatchObject({ status: 'open', oldGrade: '2', userId: s.pupil.id, exerciseId: s.e1, chapterId: s.chapterId });
    const [log] = await db().select().from(auditLog).where(eq(auditLog.targetId, res.body._id));
    expect(log).toMatchObject({ action: 'regrade.request', actorId: s.pupil.id });
  });

  it('refuses another pupil’s answer and an unknown one (403), even to an admin', async () => {
    const s = await setup();
    const other = await createUser(t, 'pupil', PUPIL_PROFILE);
    for (const headers of [other.headers, admin, member.headers]) {
      expect(await ask(headers, s.a1)).toMatchObject({
        status: 403,
        body: { message: 'Vous ne pouvez demander le réexamen que de vos propres réponses.' },
      });
    }
    expect((await ask(other.headers, '00000000-0000-4000-8000-00000000beef')).status).toBe(403);
    expect((await ask({}, s.a1)).status).toBe(401);
    expect(await db().select().from(regradeRequests).where(eq(regradeRequests.answerId, s.a1))).toEqual([]);
  });

  it('is open only after publication and before the closing date, with French reasons', async () => {
    const unpublished = await setup({ analysis: false });
    expect(await ask(unpublished.pupil.headers, unpublished.a1)).toMatchObject({
      status: 403,
      body: { message: 'Les demandes de réexamen ouvrent à la publication des notes.' },
    });
    const noWindow = await setup({ regradeUntil: null });
    expect((await ask(noWindow.pupil.headers, noWindow.a1)).body.message).toBe('Ce chapitre ne reçoit pas de demande de réexamen.');
    const closed = await setup({ regradeUntil: new Date('2026-01-10T17:00:00Z') });
    expect(await ask(closed.pupil.headers, closed.a1)).toMatchObject({
      status: 403,
      body: { message: 'Les demandes de réexamen sont closes depuis le 10 janvier 2026 à 18 h 00.' },
    });
    const mine = await inject(t, { method: 'GET', url: `/api/regrade/mine/${closed.chapterId}`, headers: closed.pupil.headers });
    expect(mine.body).toMatchObject({ open: false, regradeUntil: '2026-01-10T17:00:00.000Z', requests: [] });
    expect(mine.body.answers).toHaveLength(2);
    // Before publication the pupil's grades are not given.
    const hidden = await inject(t, {
      method: 'GET',
      url: `/api/regrade/mine/${unpublished.chapterId}`,
      headers: unpublished.pupil.headers,
    });
    expect(hidden.body).toMatchObject({ open: false, answers: [] });
  });

  it('rejects an empty or too long message in French and stores nothing', async () => {
    const s = await setup();
    expect(await ask(s.pupil.headers, s.a1, '   ')).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('Le message ne peut pas être vide.') },
    });
    expect((await ask(s.pupil.headers, s.a1, 'x'.repeat(2001))).status).toBe(400);
    expect(await db().select().from(regradeRequests).where(eq(regradeRequests.answerId, s.a1))).toEqual([]);
  });
});

describe('answering a request', () => {
  it('accepts with a new grade checked against maxPoints, recorded as a grading, and the pupil reads the reply', async () => {
    const s = await setup();
    const { body } = await ask(s.pupil.headers, s.a1);
    const queue = await inject(t, { method: 'GET', url: `/api/regrade?chapter=${s.chapterId}`, headers: member.headers });
    expect(queue.status).toBe(200);
    expect(queue.body.chapter).toMatchObject({ _id: s.chapterId, published: true });
    expect(queue.body.requests).toMatchObject([
      {
        _id: body._id,
        answerId: s.a1,
        status: 'open',
        grade: '2',
        student: { firstName: 'Sophie', lastName: 'Germain' },
        exercise: { title: 'Somme', maxPoints: 5 },
      },
    ]);

    const tooHigh = await inject(t, {
      method: 'POST',
      url: `/api/regrade/${body._id}/accept`,
      headers: member.headers,
      payload: { grade: '6', reply: 'Oui' },
    });
    expect(tooHigh.status).toBe(400);
    expect((await db().select().from(regradeRequests).where(eq(regradeRequests.id, body._id)))[0].status).toBe('open');

    const ok = await inject(t, {
      method: 'POST',
      url: `/api/regrade/${body._id}/accept`,
      headers: member.headers,
      payload: { grade: '4,5', reply: 'Vous avez raison pour la ligne 3.' },
    });
    expect(ok).toMatchObject({ status: 200, body: { message: 'Demande acceptée : la nouvelle note est enregistrée' } });
    const [a] = await db().select().from(answers).where(eq(answers.id, s.a1));
    expect(a).toMatchObject({ grade: '4.5', gradeComment: 'Calcul incomplet', graderId: member.id });
    expect(await db().select().from(gradings).where(eq(gradings.answerId, s.a1))).toMatchObject([{ grade: '4.5', graderId: member.id }]);
    expect((await db().select().from(gradeAudit).where(eq(gradeAudit.answerId, s.a1))).map((g) => [g.oldGrade, g.newGrade])).toEqual([
      ['2', '4.5'],
    ]);
    expect((await db().select().from(auditLog).where(eq(auditLog.targetId, body._id))).map((l) => l.action)).toEqual([
      'regrade.request',
      'regrade.accept',
    ]);

    const mine = await inject(t, { method: 'GET', url: `/api/regrade/mine/${s.chapterId}`, headers: s.pupil.headers });
    expect(mine.body).toMatchObject({
      open: true,
      answers: [
        { answerId: s.a1, grade: '4.5', exercise: { _id: s.e1, title: 'Somme', maxPoints: 5 } },
        { answerId: s.a2, grade: '2', exercise: { _id: s.e2, title: 'Produit', maxPoints: 5 } },
      ],
      requests: [
        { status: 'accepted', reply: 'Vous avez raison pour la ligne 3.', oldGrade: '2', newGrade: '4.5', exercise: { title: 'Somme' } },
      ],
    });
    // Handled once: a second answer is a conflict; the pupil may ask again about the same exercise.
    const twice = await inject(t, { method: 'POST', url: `/api/regrade/${body._id}/decline`, headers: admin, payload: { reply: 'Non' } });
    expect(twice).toMatchObject({ status: 409, body: { message: 'Cette demande a déjà été traitée.' } });
    expect((await ask(s.pupil.headers, s.a1)).status).toBe(201);
  });

  it('declines with a reply and leaves the grade; a pupil never reads the queue', async () => {
    const s = await setup();
    const { body } = await ask(s.pupil.headers, s.a2);
    expect((await inject(t, { method: 'GET', url: `/api/regrade?chapter=${s.chapterId}`, headers: s.pupil.headers })).status).toBe(403);
    const empty = await inject(t, {
      method: 'POST',
      url: `/api/regrade/${body._id}/decline`,
      headers: member.headers,
      payload: { reply: '' },
    });
    expect(empty.status).toBe(400);
    const res = await inject(t, {
      method: 'POST',
      url: `/api/regrade/${body._id}/decline`,
      headers: member.headers,
      payload: { reply: 'Le résultat attendu est 2.' },
    });
    expect(res.status).toBe(200);
    expect((await db().select().from(answers).where(eq(answers.id, s.a2)))[0].grade).toBe('2');
    const mine = await inject(t, { method: 'GET', url: `/api/regrade/mine/${s.chapterId}`, headers: s.pupil.headers });
    expect(mine.body.requests).toMatchObject([{ status: 'declined', reply: 'Le résultat attendu est 2.', newGrade: null }]);
  });

  it('shows pseudonyms to a corrector of an anonymous chapter, names to an admin', async () => {
    const s = await setup({ anonymousGrading: true });
    await ask(s.pupil.headers, s.a1);
    const forMember = await inject(t, { method: 'GET', url: `/api/regrade?chapter=${s.chapterId}`, headers: member.headers });
    expect(forMember.body.requests[0].student).toMatchObject({
      firstName: null,
      lastName: null,
      pseudonym: expect.stringMatching(/^Copie \d{4}$/),
    });
    const forAdmin = await inject(t, { method: 'GET', url: `/api/regrade?chapter=${s.chapterId}`, headers: admin });
    expect(forAdmin.body.requests[0].student).toMatchObject({ firstName: 'Sophie', lastName: 'Germain' });
  });
});

describe('PUT /regrade/window/{chapterId}', () => {
  it('lets an admin open and close the requests, audited; correctors may not', async () => {
    const s = await setup({ regradeUntil: null });
    const until = '2099-12-20T18:00:00+01:00';
    expect(
      (
        await inject(t, {
          method: 'PUT',
          url: `/api/regrade/window/${s.chapterId}`,
          headers: member.headers,
          payload: { regradeUntil: until },
        })
      ).status,
    ).toBe(403);
    const res = await inject(t, {
      method: 'PUT',
      url: `/api/regrade/window/${s.chapterId}`,
      headers: admin,
      payload: { regradeUntil: until },
    });
    expect(res.status).toBe(200);
    expect((await db().select().from(chapters).where(eq(chapters.id, s.chapterId)))[0].regradeUntil?.toISOString()).toBe(
      '2099-12-20T17:00:00.000Z',
    );
    expect((await ask(s.pupil.headers, s.a1)).status).toBe(201);
    const bad = await inject(t, {
      method: 'PUT',
      url: `/api/regrade/window/${s.chapterId}`,
      headers: admin,
      payload: { regradeUntil: 'demain' },
    });
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('Date de clôture invalide.') } });
    expect((await db().select().from(auditLog).where(eq(auditLog.targetId, s.chapterId))).map((l) => l.action)).toEqual(['regrade.window']);
  });
});
