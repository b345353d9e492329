import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, answers, chapters, chapterSessions, exercises, sessionExtensions, users } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, PUPIL_PROFILE, type TestApp } from './helpers.js';

/**
 * Decision 139: publishing results while pupils may still answer (each by their own window: the access
 * group's end, their extra time and extensions, their timed deadline) is refused with a 409
 * `still_answering` and their number, unless the admin confirms that number; an instant already past
 * publishes at once and the answer says so.
 */

let t: TestApp;
let admin: Record<string, string>;
const db = () => t.database.db;
const minutes = (n: number) => new Date(Date.now() + n * 60_000);

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createUser(t, 'admin')).headers;
});
afterAll(async () => t.close());

/** A chapter whose one group (grade 3eme, so only this file's pupils of that grade count) has this window and duration. */
async function chapterWith(group: { accessStart?: Date; accessEnd?: Date | null; timeDuration?: number | null }) {
  const grade = `${Math.random()}`.slice(2, 8);
  const [c] = await db().insert(chapters).values({ title: 'Tour 1' }).returning();
  await db()
    .insert(accessGroups)
    .values({ chapterId: c.id, position: 0, authorizedGrades: [grade], accessStart: minutes(-120), ...group });
  const [ex] = await db()
    .insert(exercises)
    .values({ chapterId: c.id, position: 0, title: 'Somme', answerFormat: 'numeric', maxPoints: 4 })
    .returning();
  const pupil = async (opts: { answered?: boolean; extraTimePercent?: number } = {}) => {
    const p = await createUser(t, 'pupil', { ...PUPIL_PROFILE, grade, extraTimePercent: opts.extraTimePercent ?? 0 });
    if (opts.answered ?? true) await db().insert(answers).values({ userId: p.id, exerciseId: ex.id, answer: '12', seq: 1 });
    return p.id;
  };
  return { chapterId: c.id, pupil, url: `/api/results/${c.id}/publication` };
}

const put = (url: string, payload: object) => inject(t, { method: 'PUT', url, headers: admin, payload });
const published = async (chapterId: string) => (await db().select().from(chapters).where(eq(chapters.id, chapterId)))[0];

describe('PUT /results/{chapterId}/publication: pupils still answering', () => {
  it('refuses while the window is open, with the number of pupils who may still answer; publishes once that number is confirmed', async () => {
    const f = await chapterWith({ accessEnd: minutes(60) });
    await f.pupil();
    await f.pupil({ answered: false });
    const refused = await put(f.url, { mode: 'now' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'still_answering',
      stillAnswering: 2,
      message: '2 élèves peuvent encore répondre à ce chapitre\u00a0: confirmez la publication pour leur montrer les résultats.',
    });
    expect((await published(f.chapterId)).analysis).toBe(false);
    // A number that is not the current one (a pupil joined meanwhile, a stale dialog) is refused again.
    expect((await put(f.url, { mode: 'now', confirm: 1 })).body).toMatchObject({ code: 'still_answering', stillAnswering: 2 });
    const ok = await put(f.url, { mode: 'now', confirm: 2 });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Résultats publiés');
    expect((await published(f.chapterId)).analysis).toBe(true);
  });

  it('counts extra time and extensions past the group’s end, not a pupil whose time is over or who finished', async () => {
    const f = await chapterWith({ accessEnd: minutes(-10), timeDuration: 60 });
    // Timed 60 min, started 50 min ago, the window closed 10 min ago: a third more time (20 min) keeps them in.
    const extra = await f.pupil({ extraTimePercent: 34 });
    const extended = await f.pupil();
    const over = await f.pupil();
    const finished = await f.pupil({ extraTimePercent: 50 });
    await db()
      .insert(chapterSessions)
      .values([
        { chapterId: f.chapterId, userId: extra, startedAt: minutes(-50) },
        { chapterId: f.chapterId, userId: extended, startedAt: minutes(-50) },
        { chapterId: f.chapterId, userId: over, startedAt: minutes(-50) },
        { chapterId: f.chapterId, userId: finished, startedAt: minutes(-50), finishedAt: minutes(-5) },
      ]);
    await db()
      .insert(sessionExtensions)
      .values({ chapterId: f.chapterId, userId: extended, minutes: 15, reason: 'Panne de courant', createdBy: extended });
    expect((await put(f.url, { mode: 'now' })).body).toMatchObject({ code: 'still_answering', stillAnswering: 2 });
    // Scheduled after everyone's end (the extension's 15 min, the extra 20 min): accepted without a confirmation.
    const later = await put(f.url, { mode: 'scheduled', publishAt: minutes(15).toISOString() });
    expect(later.status).toBe(200);
    expect(later.body.message).toBe('Publication programmée');
    // Scheduled while one of them still answers: refused with that number.
    expect((await put(f.url, { mode: 'scheduled', publishAt: minutes(7).toISOString() })).body).toMatchObject({ stillAnswering: 1 });
    await db().update(users).set({ extraTimePercent: 0 }).where(eq(users.id, extra));
    await db().delete(sessionExtensions).where(eq(sessionExtensions.userId, extended));
    expect((await put(f.url, { mode: 'now' })).status).toBe(200);
  });

  it('an instant already past publishes now and says so; refused like now while pupils may answer', async () => {
    const open = await chapterWith({ accessEnd: minutes(60) });
    await open.pupil();
    const past = minutes(-60).toISOString();
    expect((await put(open.url, { mode: 'scheduled', publishAt: past })).body).toMatchObject({
      code: 'still_answering',
      stillAnswering: 1,
    });
    expect(await published(open.chapterId)).toMatchObject({ analysis: false, publishAt: null });

    const closed = await chapterWith({ accessEnd: minutes(-30) });
    await closed.pupil();
    const res = await put(closed.url, { mode: 'scheduled', publishAt: past });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Instant passé\u00a0: publication immédiate.');
    expect(await published(closed.chapterId)).toMatchObject({ analysis: true, publishAt: null });
    const read = await inject(t, { method: 'GET', url: closed.url, headers: admin });
    expect(read.body).toMatchObject({ published: true, publishAt: null });
  });

  it('a window without an end counts only the pupils who began; withdrawing is never refused', async () => {
    const f = await chapterWith({ accessEnd: null });
    await f.pupil();
    await f.pupil({ answered: false });
    expect((await put(f.url, { mode: 'now' })).body).toMatchObject({ stillAnswering: 1 });
    expect((await put(f.url, { mode: 'now', confirm: 1 })).status).toBe(200);
    expect((await put(f.url, { mode: 'unpublished' })).status).toBe(200);
  });
});

describe('PATCH /chapter/{id} with analysis: true: the same guard', () => {
  const patch = (chapterId: string, payload: object) =>
    inject(t, { method: 'PATCH', url: `/api/chapter/${chapterId}`, headers: admin, payload });

  it('refuses while pupils may still answer, with the same code and words; publishes once their number is confirmed', async () => {
    const f = await chapterWith({ accessEnd: minutes(60) });
    await f.pupil();
    await f.pupil({ answered: false });
    const refused = await patch(f.chapterId, { analysis: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'still_answering',
      message: '2 élèves peuvent encore répondre à ce chapitre\u00a0: confirmez la publication pour leur montrer les résultats.',
    });
    // Nothing of the request is kept: neither the flag nor the other fields sent with it.
    expect(await published(f.chapterId)).toMatchObject({ analysis: false, title: 'Tour 1' });
    expect((await patch(f.chapterId, { analysis: true, title: 'Tour 2', confirm: 1 })).body).toMatchObject({ code: 'still_answering' });
    expect(await published(f.chapterId)).toMatchObject({ analysis: false, title: 'Tour 1' });
    const ok = await patch(f.chapterId, { analysis: true, confirm: 2 });
    expect(ok.status).toBe(200);
    expect((await published(f.chapterId)).analysis).toBe(true);
    // Already published: sending the flag again asks nothing.
    expect((await patch(f.chapterId, { analysis: true })).status).toBe(200);
  });

  it('never refuses a paper chapter (also made one in the same request) nor a window already closed', async () => {
    const open = await chapterWith({ accessEnd: minutes(60) });
    await open.pupil();
    expect((await patch(open.chapterId, { analysis: true, offline: true })).status).toBe(200);
    expect(await published(open.chapterId)).toMatchObject({ analysis: true, offline: true });

    const closed = await chapterWith({ accessEnd: minutes(-30) });
    await closed.pupil();
    expect((await patch(closed.chapterId, { analysis: true })).status).toBe(200);
    expect((await published(closed.chapterId)).analysis).toBe(true);
  });
});

describe('PUT /results/{chapterId}/publication: qualification threshold', () => {
  it('refuses a threshold above the chapter’s maximum total or below 0 with a French 400, and saves a decimal one', async () => {
    const f = await chapterWith({ accessEnd: minutes(-30) });
    const above = await put(f.url, { mode: 'unpublished', qualificationThreshold: 15 });
    expect(above.status).toBe(400);
    expect(above.body.message).toBe('Le seuil de qualification dépasse le total maximal du chapitre (4 points).');
    const negative = await put(f.url, { mode: 'unpublished', qualificationThreshold: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toContain('Le seuil de qualification ne peut pas être négatif.');
    expect((await published(f.chapterId)).qualificationThreshold).toBeNull();
    expect((await put(f.url, { mode: 'unpublished', qualificationThreshold: 1.5 })).status).toBe(200);
    expect((await published(f.chapterId)).qualificationThreshold).toBe(1.5);
    expect((await put(f.url, { mode: 'unpublished', qualificationThreshold: 4 })).status).toBe(200);
  });
});
