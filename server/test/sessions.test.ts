import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, chapters, chapterSessions, exercises, focusEvents, institutions } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';

let t: TestApp;
let schoolId: string;
beforeAll(async () => {
  t = await buildTestApp();
  [{ id: schoolId }] = await t.database.db.insert(institutions).values({ name: 'Collège Évariste Galois' }).returning();
});
afterAll(async () => t.close());

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

/** A pupil whose profile is complete (docs/product.md#spec-5), so chapter content is open to them. */
const pupil = (fields: Parameters<typeof createUser>[2] = {}) =>
  createUser(t, 'pupil', {
    firstName: 'Sophie',
    lastName: 'Germain',
    gender: 'female',
    birthDate: '2010-04-01',
    grade: '3eme',
    defaultChoice: 'local',
    emailParent: 'parent@exemple.fr',
    institutionId: schoolId,
    ...fields,
  });

async function chapterWith(rule: Partial<typeof accessGroups.$inferInsert> | null, chapter: Partial<typeof chapters.$inferInsert> = {}) {
  const [c] = await t.database.db
    .insert(chapters)
    .values({ title: 'Tour 1', ...chapter })
    .returning();
  if (rule) await t.database.db.insert(accessGroups).values({ chapterId: c.id, position: 0, ...rule });
  return c.id;
}

const getState = (id: string, headers: Record<string, string>) => inject(t, { method: 'GET', url: `/api/chapter/start/${id}`, headers });
const start = (id: string, headers: Record<string, string>) => inject(t, { method: 'POST', url: `/api/chapter/start/${id}`, headers });
const event = (id: string, headers: Record<string, string>, eventType: string) =>
  inject(t, { method: 'POST', url: `/api/chapter/event/${id}`, headers, payload: { eventType } });

describe('guards and bad input', () => {
  it('refuses anonymous callers with 401 on every session route', async () => {
    const id = await chapterWith({});
    for (const res of [await getState(id, {}), await start(id, {}), await event(id, {}, 'blur')]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Vous devez vous connecter.');
    }
  });

  it('gives 400 in French for a malformed id and 404 for an unknown chapter', async () => {
    const p = await pupil();
    const bad = await getState('pas-un-id', p.headers);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Données invalides/);
    expect((await start('pas-un-id', p.headers)).status).toBe(400);
    const missing = await getState('00000000-0000-4000-8000-0000000000ff', p.headers);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Chapitre introuvable.');
  });

  it('refuses a pupil no access group admits, and a pupil with an incomplete profile', async () => {
    const girlsOnly = await chapterWith({ authorizedGenders: ['female'] });
    const boy = await pupil({ gender: 'male' });
    for (const res of [
      await getState(girlsOnly, boy.headers),
      await start(girlsOnly, boy.headers),
      await event(girlsOnly, boy.headers, 'blur'),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Vous n’avez pas accès à ce chapitre.');
    }
    const incomplete = await createUser(t, 'pupil', { gender: 'female' });
    const res = await getState(girlsOnly, incomplete.headers);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Complétez votre profil pour accéder aux contenus.');
  });

  it('refuses an unknown event type with 400 and stores nothing', async () => {
    const id = await chapterWith({ timeDuration: 30 });
    const p = await pupil();
    await start(id, p.headers);
    const res = await event(id, p.headers, 'scroll');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Données invalides \(eventType\)/);
    const rows = await t.database.db.select().from(focusEvents).where(eq(focusEvents.chapterId, id));
    expect(rows).toHaveLength(0);
  });
});

describe('timed chapter: pending → start → started → after', () => {
  it('walks through the states with the server as the clock', async () => {
    const id = await chapterWith({ timeDuration: 30, accessStart: minutes(-10), accessEnd: minutes(240) });
    const p = await pupil();

    const pending = await getState(id, p.headers);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({
      status: 'pending',
      remainingTime: null,
      timed: true,
      duration: 30 * 60,
      startedAt: null,
      endTime: null,
    });
    expect(Math.abs(Date.parse(pending.body.accessStart) - minutes(-10).getTime())).toBeLessThan(60_000);

    const started = await start(id, p.headers);
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('started');
    expect(started.body.remainingTime).toBeGreaterThan(30 * 60 - 5);
    expect(started.body.remainingTime).toBeLessThanOrEqual(30 * 60);
    expect(started.body.message).toBeUndefined();
    const { startedAt, endTime } = started.body;
    expect(Date.parse(endTime) - Date.parse(startedAt)).toBe(30 * 60_000);

    // Idempotent: a second start changes nothing.
    const again = await start(id, p.headers);
    expect(again.status).toBe(200);
    expect(again.body.startedAt).toBe(startedAt);
    const rows = await t.database.db.select().from(chapterSessions).where(eq(chapterSessions.chapterId, id));
    expect(rows).toHaveLength(1);

    const view = await getState(id, p.headers);
    expect(view.body).toMatchObject({ status: 'started', timed: true, startedAt, deadline: endTime });

    // 29 minutes later: one minute left.
    await t.database.db.execute(sql`UPDATE chapter_sessions SET started_at = now() - interval '29 minutes' WHERE chapter_id = ${id}`);
    const late = await getState(id, p.headers);
    expect(late.body.status).toBe('started');
    expect(late.body.remainingTime).toBeGreaterThan(55);
    expect(late.body.remainingTime).toBeLessThanOrEqual(60);

    await t.database.db.execute(sql`UPDATE chapter_sessions SET started_at = now() - interval '31 minutes' WHERE chapter_id = ${id}`);
    const after = await getState(id, p.headers);
    expect(after.body).toMatchObject({ status: 'after', remainingTime: 0 });
    const restart = await start(id, p.headers);
    expect(restart.status).toBe(403);
    expect(restart.body.message).toBe('L’épreuve est terminée.');
  });

  it('caps the remaining time by the window end', async () => {
    const id = await chapterWith({ timeDuration: 120, accessEnd: minutes(10) });
    const p = await pupil();
    const res = await start(id, p.headers);
    expect(res.body.status).toBe('started');
    expect(res.body.remainingTime).toBeLessThanOrEqual(600);
    expect(res.body.remainingTime).toBeGreaterThan(590);
    expect(res.body.endTime).toBe(res.body.deadline);
  });

  it('keeps sessions per pupil', async () => {
    const id = await chapterWith({ timeDuration: 30 });
    const a = await pupil();
    const b = await pupil();
    await start(id, a.headers);
    expect((await getState(id, a.headers)).body.status).toBe('started');
    expect((await getState(id, b.headers)).body.status).toBe('pending');
  });
});

describe('windows and untimed chapters', () => {
  it('is started and unlimited for an untimed chapter without window; start is a harmless no-op', async () => {
    const id = await chapterWith({ timeDuration: 0 });
    const p = await pupil();
    const res = await getState(id, p.headers);
    expect(res.body).toEqual({
      status: 'started',
      remainingTime: null,
      timed: false,
      duration: null,
      accessStart: null,
      accessEnd: null,
      startedAt: null,
      endTime: null,
      deadline: null,
      serverTime: expect.any(String),
    });
    expect(Math.abs(Date.parse(res.body.serverTime) - Date.now())).toBeLessThan(5_000);
    expect((await start(id, p.headers)).body.status).toBe('started');
    expect(await t.database.db.select().from(chapterSessions).where(eq(chapterSessions.chapterId, id))).toHaveLength(0);
  });

  it('counts an untimed chapter down to its window end', async () => {
    const id = await chapterWith({ timeDuration: null, accessEnd: minutes(60) });
    const res = await getState(id, (await pupil()).headers);
    expect(res.body.status).toBe('started');
    expect(res.body.remainingTime).toBeGreaterThan(3590);
    expect(res.body.remainingTime).toBeLessThanOrEqual(3600);
  });

  it('is before until the window opens, and refuses a start', async () => {
    const id = await chapterWith({ timeDuration: 30, accessStart: minutes(60), accessEnd: minutes(120) });
    const p = await pupil();
    expect((await getState(id, p.headers)).body).toMatchObject({ status: 'before', remainingTime: null });
    const res = await start(id, p.headers);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('L’épreuve n’est pas encore disponible.');
    expect(await t.database.db.select().from(chapterSessions).where(eq(chapterSessions.chapterId, id))).toHaveLength(0);
  });

  it('is after once the window closed, timed or not', async () => {
    const p = await pupil();
    for (const timeDuration of [null, 30]) {
      const id = await chapterWith({ timeDuration, accessStart: minutes(-120), accessEnd: minutes(-60) });
      expect((await getState(id, p.headers)).body).toMatchObject({ status: 'after', remainingTime: 0 });
      expect((await start(id, p.headers)).status).toBe(403);
    }
  });

  it('uses the first matching access group in table order', async () => {
    const [c] = await t.database.db.insert(chapters).values({ title: 'Ordre' }).returning();
    await t.database.db.insert(accessGroups).values([
      { chapterId: c.id, position: 1, name: 'tous', timeDuration: 90 },
      { chapterId: c.id, position: 0, name: 'garçons', authorizedGenders: ['male'], accessStart: minutes(60) },
    ]);
    expect((await getState(c.id, (await pupil({ gender: 'male' })).headers)).body.status).toBe('before');
    expect((await getState(c.id, (await pupil({ gender: 'female' })).headers)).body.status).toBe('pending');
  });
});

describe('access rules read from the database', () => {
  it('applies genders, grades and inclusive birth-date bounds', async () => {
    const [c] = await t.database.db.insert(chapters).values({ title: 'Bornes' }).returning();
    await t.database.db.insert(accessGroups).values({
      chapterId: c.id,
      position: 0,
      authorizedGenders: ['female', 'other'],
      authorizedGrades: ['3eme', '4eme'],
      birthDateMin: '2010-01-01',
      birthDateMax: '2010-12-31',
    });
    const status = async (fields: Parameters<typeof pupil>[0]) => (await getState(c.id, (await pupil(fields)).headers)).status;
    expect(await status({ birthDate: '2010-01-01' })).toBe(200);
    expect(await status({ birthDate: '2010-12-31', gender: 'other', grade: '4eme' })).toBe(200);
    expect(await status({ birthDate: '2009-12-31' })).toBe(403);
    expect(await status({ birthDate: '2011-01-01' })).toBe(403);
    expect(await status({ birthDate: '2010-06-01', grade: '2nde' })).toBe(403);
    expect(await status({ birthDate: '2010-06-01', gender: 'male' })).toBe(403);
  });
});

describe('demo answers', () => {
  it('gives numeric answers to the given pupils, with a history, readable through the API', async () => {
    const { seedAnswersDemo } = await import('../src/sessions/demo.js');
    const id = await chapterWith({});
    const [e1, e2] = await t.database.db
      .insert(exercises)
      .values([
        { chapterId: id, position: 0, title: 'A', answerFormat: 'numeric' },
        { chapterId: id, position: 1, title: 'B', answerFormat: 'numeric' },
        { chapterId: id, position: 2, title: 'C', answerFormat: 'pdf' },
      ])
      .returning();
    const a = await pupil();
    const b = await pupil();
    const written = await seedAnswersDemo(t.database.db, { pupilIds: [a.id, b.id], chapterId: id });
    expect(written).toBe(6); // 4 first answers + 2 second saves
    const list = (await inject(t, { method: 'GET', url: `/api/answer/chapter/${id}`, headers: a.headers })).body;
    expect(list.map((x: { exercise: string }) => x.exercise).sort()).toEqual([e1.id, e2.id].sort());
    expect(list.every((x: { answer: string }) => /^[0-9,]+$/.test(x.answer))).toBe(true);
  });
});

describe('staff and school staff', () => {
  it('shows the chapter as started and unlimited to admins and members, without recording a start', async () => {
    const id = await chapterWith({ timeDuration: 30, accessStart: minutes(60) });
    for (const role of ['admin', 'member'] as const) {
      const staff = await createUser(t, role);
      expect((await getState(id, staff.headers)).body).toMatchObject({ status: 'started', remainingTime: null, timed: false });
      expect((await start(id, staff.headers)).body.status).toBe('started');
    }
    expect(await t.database.db.select().from(chapterSessions).where(eq(chapterSessions.chapterId, id))).toHaveLength(0);
  });

  it('lets school staff follow the window of a paper chapter no group admits them to', async () => {
    const teacher = await createUser(t, 'teacher', { firstName: 'Prof', lastName: 'Nom', gender: 'male', institutionId: schoolId });
    const paper = await chapterWith({ authorizedGrades: ['3eme'], timeDuration: 60, accessStart: minutes(-5) }, { offline: true });
    expect((await getState(paper, teacher.headers)).body).toMatchObject({ status: 'started', timed: false, remainingTime: null });
    const online = await chapterWith({ authorizedGrades: ['3eme'] });
    expect((await getState(online, teacher.headers)).status).toBe(403);
  });
});

describe('focus tracking', () => {
  const eventsOf = (chapterId: string, userId: string) =>
    t.database.db
      .select()
      .from(focusEvents)
      .where(and(eq(focusEvents.chapterId, chapterId), eq(focusEvents.userId, userId)));

  it('stores focus and blur with time and IP only while timed, started and time remains', async () => {
    const id = await chapterWith({ timeDuration: 30 });
    const p = await pupil();
    expect((await event(id, p.headers, 'blur')).body).toEqual({ recorded: false }); // pending
    await start(id, p.headers);
    expect((await event(id, p.headers, 'blur')).body).toEqual({ recorded: true });
    expect((await event(id, p.headers, 'focus')).body).toEqual({ recorded: true });
    const rows = await eventsOf(id, p.id);
    expect(rows.map((r) => r.eventType).sort()).toEqual(['blur', 'focus']);
    expect(rows[0].ip).toBe('127.0.0.1');
    expect(Math.abs(rows[0].at.getTime() - Date.now())).toBeLessThan(60_000);

    await t.database.db.execute(sql`UPDATE chapter_sessions SET started_at = now() - interval '2 hours' WHERE chapter_id = ${id}`);
    expect((await event(id, p.headers, 'blur')).body).toEqual({ recorded: false });
    expect(await eventsOf(id, p.id)).toHaveLength(2);
  });

  it('ignores events on untimed chapters and from staff', async () => {
    const id = await chapterWith({ timeDuration: null });
    const p = await pupil();
    expect((await event(id, p.headers, 'blur')).body).toEqual({ recorded: false });
    const member = await createUser(t, 'member');
    expect((await event(id, member.headers, 'blur')).body).toEqual({ recorded: false });
    expect(await t.database.db.select().from(focusEvents).where(eq(focusEvents.chapterId, id))).toHaveLength(0);
  });
});
