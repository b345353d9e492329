import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/auth/service.js';
import { DEMO_PASSWORD, seedDemo } from '../src/demo-data.js';
import { openFileStore } from '../src/files/store-select.js';
import { buildTestApp, inject, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('demo data', () => {
  it('creates one account of each role that can log in with the printed password', async () => {
    const accounts = await seedDemo(
      t.database.db,
      openFileStore({ config: t.config, db: t.database.db }),
      await hashPassword(DEMO_PASSWORD),
    );
    const roles: Record<string, { isAdmin: boolean; isMember: boolean; isTeacher: boolean }> = {};
    const tokens: Record<string, string> = {};
    for (const a of accounts.filter((x) => !x.email.includes('…'))) {
      const login = await inject(t, {
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: a.email, password: DEMO_PASSWORD },
      });
      expect(login.status, a.email).toBe(200);
      const me = await inject(t, {
        method: 'PUT',
        url: '/api/auth/me',
        payload: {},
        headers: { authorization: `Bearer ${login.body.token}` },
      });
      tokens[a.email] = login.body.token;
      roles[a.email] = { isAdmin: me.body.isAdmin, isMember: me.body.isMember, isTeacher: me.body.isTeacher };
    }
    expect(roles['admin@olympe.demo'].isAdmin).toBe(true);
    expect(roles['correcteur@olympe.demo'].isMember).toBe(true);
    expect(roles['prof@olympe.demo'].isTeacher).toBe(true);
    expect(roles['eleve@olympe.demo']).toEqual({ isAdmin: false, isMember: false, isTeacher: false });

    // The teacher's centre shows a pupil who moved to the school after the paper chapter opened.
    const teacher = { authorization: `Bearer ${tokens['prof@olympe.demo']}` };
    const chapters = await inject(t, { method: 'GET', url: '/api/chapter', headers: teacher });
    const paper = chapters.body.find((c: { offline: boolean }) => c.offline);
    const centre = await inject(t, { method: 'GET', url: `/api/center/${paper._id}`, headers: teacher });
    expect(centre.body.members.filter((m: { schoolChange?: unknown }) => m.schoolChange)).toHaveLength(1);

    // A pupil with extra time, and an incident extension on the timed chapter's live page.
    const withExtra = await inject(t, {
      method: 'PUT',
      url: '/api/auth/me',
      payload: {},
      headers: { authorization: `Bearer ${tokens['eleve01@olympe.demo']}` },
    });
    expect(withExtra.body.extraTimePercent).toBe(33);
    const admin = { authorization: `Bearer ${tokens['admin@olympe.demo']}` };
    const all = await inject(t, { method: 'GET', url: '/api/chapter', headers: admin });
    const lives = await Promise.all(
      all.body.map((c: { _id: string }) => inject(t, { method: 'GET', url: `/api/chapter/${c._id}/live`, headers: admin })),
    );
    expect(lives.flatMap((l) => l.body.extensions)).toHaveLength(1);

    // Decision 63: the paper chapter is graded blind and twice, out of 7; one copy awaits arbitration.
    const second = { authorization: `Bearer ${tokens['correcteur2@olympe.demo']}` };
    const table = (await inject(t, { method: 'GET', url: `/api/answer/table/${paper._id}`, headers: second })).body;
    expect(table.chapter).toMatchObject({ anonymousGrading: true, doubleGrading: true, gradingTolerance: 1 });
    expect(table.maxTotal).toBe(14);
    const users = Object.values(table.users) as Array<{ pseudonym: string; lastName: string | null; data: string[] }>;
    expect(users.length).toBeGreaterThan(0);
    expect(users.every((u) => /^Copie \d{4}$/.test(u.pseudonym) && u.lastName === null)).toBe(true);
    expect(users.map((u) => u.data[0])).toEqual(expect.arrayContaining(['6.5', '≠', '?']));
    const arbitration = await inject(t, { method: 'GET', url: `/api/answer/arbitration/${paper._id}`, headers: admin });
    expect(arbitration.body).toHaveLength(1);
    const assignments = await inject(t, { method: 'GET', url: `/api/chapter/${paper._id}/assignments`, headers: second });
    expect(assignments.body.exercises[1].correctors).toHaveLength(1);

    // Decision 71: a published final; the demo pupil reads her card (rank shown, qualified), her teacher the school's results.
    const final = all.body.find((c: { title: string }) => c.title === 'Coupe Olympe 2025 — Finale');
    const pupil = { authorization: `Bearer ${tokens['eleve@olympe.demo']}` };
    const card = await inject(t, { method: 'GET', url: `/api/results/${final._id}`, headers: pupil });
    expect(card.body).toMatchObject({
      total: 17.5,
      maxTotal: 20,
      rank: 2,
      qualified: true,
      qualificationText: 'Qualifié(e) pour le stage olympique',
    });
    const school = await inject(t, { method: 'GET', url: `/api/results/${final._id}/institution`, headers: teacher });
    expect(school.body.pupils.length).toBeGreaterThan(1);
    // Decisions 73–75: a published chapter with a pending regrade request, statistics with an errata candidate, and one chapter in the bin.
    const results = all.body.find((c: { title: string }) => c.title.includes('résultats publiés'));
    const corrector = { authorization: `Bearer ${tokens['correcteur@olympe.demo']}` };
    const queue = await inject(t, { method: 'GET', url: `/api/regrade?chapter=${results._id}`, headers: corrector });
    expect(queue.body.requests.map((r: { status: string }) => r.status)).toEqual(['open', 'declined']);
    const mine = await inject(t, { method: 'GET', url: `/api/regrade/mine/${results._id}`, headers: pupil });
    expect(mine.body).toMatchObject({ open: true, requests: [{ status: 'open' }] });
    const stats = await inject(t, { method: 'GET', url: `/api/stats/${results._id}`, headers: corrector });
    expect(stats.body.exercises[0].versions.filter((v: { flagged: boolean }) => v.flagged)).toHaveLength(1);
    expect(stats.body.exercises[1].versions.some((v: { flagged: boolean }) => v.flagged)).toBe(false);
    const bin = await inject(t, { method: 'GET', url: '/api/bin', headers: admin });
    expect(bin.body).toMatchObject([{ kind: 'chapter', title: 'Entraînement 2025 (supprimé)' }]);
  });
});
