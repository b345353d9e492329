import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { hashPassword } from '../src/auth/service.js';
import { column, rows } from '../src/db/query.js';
import { DEMO_PASSWORD, seedDemo } from '../src/demo-data.js';
import { openFileStore } from '../src/files/store-select.js';
import { DEMO_SELECTION_PARTICIPANTS, DEMO_SELECTION_TITLE } from '../src/selections/demo.js';
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

  // Decisions 155–158: a draft selection over Tour 1 (300 participants), its jury, two cut-offs set, a tie left open.
  it('seeds the draft selection for Tour 2, its jury, its categories and the round it opens', async () => {
    const db = t.database.db;
    const [selection] = await rows(
      db,
      z.object({
        id: z.string(),
        jury: z.string(),
        jury_right: z.string(),
        publish_at: z.unknown(),
        versions: z.coerce.number(),
        chapter: z.string(),
      }),
      sql`SELECT s.id, g.name AS jury, s.jury_right, s.publish_at, (s.chapters->0->>'chapterId') AS chapter,
                 (SELECT count(*) FROM selection_versions v WHERE v.selection_id = s.id) AS versions
          FROM selections s JOIN groups g ON g.id = s.jury_group_id WHERE s.title = ${DEMO_SELECTION_TITLE}`,
    );
    expect(selection).toMatchObject({ jury: 'Jury', jury_right: 'decide', publish_at: null, versions: 0 });
    const jurors = await rows(
      db,
      z.object({ email: z.string() }),
      sql`SELECT u.email FROM group_members m JOIN users u ON u.id = m.user_id JOIN selections s ON s.jury_group_id = m.group_id
          WHERE s.id = ${selection.id}::uuid`,
    );
    expect(jurors.map((j) => j.email)).toEqual(['correcteur@olympe.demo']);
    const [round] = await rows(
      db,
      z.object({ participants: z.coerce.number(), graded: z.coerce.number(), published: z.boolean(), schools: z.coerce.number() }),
      sql`SELECT (SELECT count(*) FROM chapter_sessions WHERE chapter_id = c.id) AS participants,
                 (SELECT count(*) FROM answers a JOIN exercises e ON e.id = a.exercise_id WHERE e.chapter_id = c.id AND a.grade IS NOT NULL) AS graded,
                 c.analysis AS published,
                 (SELECT count(DISTINCT i.id) FROM chapter_sessions cs JOIN users u ON u.id = cs.user_id JOIN institutions i ON i.id = u.institution_id
                  WHERE cs.chapter_id = c.id AND i.sector IS NOT NULL AND i.academy IS NOT NULL) AS schools
          FROM chapters c WHERE c.id = ${selection.chapter}::uuid`,
    );
    expect(round).toMatchObject({ participants: DEMO_SELECTION_PARTICIPANTS, published: true });
    expect(round.graded).toBeGreaterThan(DEMO_SELECTION_PARTICIPANTS * 4);
    expect(round.schools).toBeGreaterThan(10);
    // Per category: its pupils (by the grade their session recorded) and how many sit exactly at the cut-off.
    const categories = await rows(
      db,
      z.object({
        name: z.string(),
        cutoff: z.number().nullable(),
        at_cutoff: z.string().nullable(),
        pupils: z.coerce.number(),
        tied: z.coerce.number(),
      }),
      sql`WITH totals AS (
            SELECT cs.user_id, cs.access_grade, coalesce(sum(a.grade::float8), 0) AS total
            FROM chapter_sessions cs LEFT JOIN exercises e ON e.chapter_id = cs.chapter_id
            LEFT JOIN answers a ON a.exercise_id = e.id AND a.user_id = cs.user_id
            WHERE cs.chapter_id = ${selection.chapter}::uuid GROUP BY cs.user_id, cs.access_grade)
          SELECT c.name, c.cutoff, c.at_cutoff, count(t.user_id) AS pupils, count(t.user_id) FILTER (WHERE t.total = c.cutoff) AS tied
          FROM selection_categories c LEFT JOIN totals t ON t.access_grade = ANY (c.grades)
          WHERE c.selection_id = ${selection.id}::uuid GROUP BY c.id ORDER BY c.position`,
    );
    expect(categories.map((c) => [c.name, c.at_cutoff])).toEqual([
      ['Collège', 'include'],
      ['Seconde', 'include'],
      ['Première et terminale', null],
    ]);
    expect(categories.reduce((n, c) => n + c.pupils, 0)).toBe(DEMO_SELECTION_PARTICIPANTS);
    expect(categories.every((c) => c.cutoff !== null && c.pupils > 20)).toBe(true);
    expect(categories[2].tied).toBeGreaterThanOrEqual(2);
    // Tour 2 admits only the selection's qualified (decision 157).
    const [gate] = await rows(
      db,
      z.object({ title: z.string() }),
      sql`SELECT c.title FROM access_groups g JOIN chapters c ON c.id = g.chapter_id WHERE g.required_selection_id = ${selection.id}::uuid`,
    );
    expect(gate.title).toBe('Olympiades 2026 — Tour 2');
  });
  // Decisions 159–160: the paper copies carry both correctors' marks, and each paper exercise has its comment bank.
  it('seeds marks on the double-graded paper copies and a comment bank whose remark they applied', async () => {
    const db = t.database.db;
    const [marks] = await rows(
      db,
      z.object({ gradings: column.number, marked: column.number, applied: column.number, banks: column.number }),
      sql`SELECT count(*) AS gradings, count(*) FILTER (WHERE jsonb_array_length(g.annotations) = 5) AS marked,
                 count(*) FILTER (WHERE cardinality(g.bank_comments) = 1) AS applied,
                 (SELECT count(DISTINCT exercise_id) FROM comment_bank) AS banks
          FROM gradings g JOIN comment_bank b ON b.id = g.bank_comments[1]`,
    );
    expect(marks.gradings).toBeGreaterThan(0);
    expect(marks).toMatchObject({ marked: marks.gradings, applied: marks.gradings });
    expect(marks.banks).toBeGreaterThanOrEqual(2);
  });
});
