import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedChaptersDemo } from '../src/chapters/demo.js';
import { accessGroups, chapters } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, loginAs, PUPIL_PROFILE, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await loginAs(t, 'admin');
});
afterAll(async () => t.close());

const ROLES: RoleName[] = ['anonymous', 'pupil', 'teacher', 'member', 'admin'];
const expected = (role: RoleName, allowed: readonly RoleName[], ok: number) =>
  allowed.includes(role) ? ok : role === 'anonymous' ? 401 : 403;

async function newChapter(fields: Partial<typeof chapters.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(chapters)
    .values({ title: 'Chapitre de test', ...fields })
    .returning();
  return row;
}

const chapterRow = async (id: string) => (await t.database.db.select().from(chapters).where(eq(chapters.id, id)))[0];

describe('chapter routes: who may call them', () => {
  const admins: RoleName[] = ['admin'];
  for (const role of ROLES) {
    it(`POST /chapter as ${role}`, async () => {
      const res = await inject(t, { method: 'POST', url: '/api/chapter', headers: await loginAs(t, role), payload: { title: 'Créé' } });
      expect(res.status).toBe(expected(role, admins, 201));
    });
    it(`PATCH /chapter/{id} as ${role}`, async () => {
      const c = await newChapter();
      const res = await inject(t, {
        method: 'PATCH',
        url: `/api/chapter/${c.id}`,
        headers: await loginAs(t, role),
        payload: { title: 'Modifié' },
      });
      expect(res.status).toBe(expected(role, admins, 200));
      expect((await chapterRow(c.id)).title).toBe(role === 'admin' ? 'Modifié' : 'Chapitre de test');
    });
    it(`DELETE /chapter/{id} as ${role}`, async () => {
      const c = await newChapter();
      const res = await inject(t, { method: 'DELETE', url: `/api/chapter/${c.id}`, headers: await loginAs(t, role) });
      expect(res.status).toBe(expected(role, admins, 200));
      // Decision 73: the admin's delete moves it to the bin; anyone else's leaves it live.
      expect((await chapterRow(c.id)).deletedAt !== null).toBe(role === 'admin');
    });
  }

  it('GET /chapter/{id} per role: staff all, school staff the centre instructions, pupils the pupils’ part', async () => {
    const c = await newChapter({ offline: true, headerStudents: 'Pour les élèves', headerCenters: 'Pour les centres' });
    await t.database.db.insert(accessGroups).values({ chapterId: c.id, position: 0, name: 'all', timeDuration: 60 });
    const get = async (role: RoleName) => inject(t, { method: 'GET', url: `/api/chapter/${c.id}`, headers: await loginAs(t, role) });
    expect((await get('anonymous')).status).toBe(401);
    const pupil = await get('pupil');
    expect(pupil.status).toBe(200);
    expect(Object.keys(pupil.body).sort()).toEqual(['_id', 'analysis', 'headerStudents', 'offline', 'title']);
    const teacher = await get('teacher');
    expect(teacher.body.headerCenters).toBe('Pour les centres');
    expect(teacher.body.groups).toBeUndefined();
    for (const role of ['member', 'admin'] as const) {
      const res = await get(role);
      expect(res.body.groups).toEqual([
        {
          name: 'all',
          authorizedGenders: [],
          authorizedGrades: [],
          birthDateMin: null,
          birthDateMax: null,
          timeDuration: 60,
          accessStart: null,
          accessEnd: null,
          requiredSelectionId: null,
        },
      ]);
      expect(res.body.headerCenters).toBe('Pour les centres');
    }
  });

  it('GET /chapter/{id} refuses a pupil no access group admits, and answers 404 / 400 for unknown or bad ids', async () => {
    const c = await newChapter();
    await t.database.db.insert(accessGroups).values({ chapterId: c.id, position: 0, authorizedGrades: ['Tale'] });
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, grade: '3eme' });
    const res = await inject(t, { method: 'GET', url: `/api/chapter/${c.id}`, headers: pupil.headers });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Vous n’avez pas accès à ce chapitre.');
    // A teacher does not see an online chapter that no group opens to them either.
    expect((await inject(t, { method: 'GET', url: `/api/chapter/${c.id}`, headers: await loginAs(t, 'teacher') })).status).toBe(403);
    const missing = await inject(t, { method: 'GET', url: '/api/chapter/00000000-0000-4000-8000-00000000dead', headers: admin });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Chapitre introuvable.');
    const bad = await inject(t, { method: 'GET', url: '/api/chapter/pas-un-id', headers: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Identifiant de chapitre invalide/);
  });
});

describe('POST /chapter', () => {
  it('creates with the given flags and lists it', async () => {
    const res = await inject(t, {
      method: 'POST',
      url: '/api/chapter',
      headers: admin,
      payload: { title: '  Tour 2  ', offline: true, analysis: false },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Tour 2', offline: true, analysis: false, message: 'Chapitre créé' });
    const list = await inject(t, { method: 'GET', url: '/api/chapter', headers: admin });
    expect(list.body.map((c: { _id: string }) => c._id)).toContain(res.body._id);
  });

  it('rejects an empty or too long title in French and creates nothing', async () => {
    const before = (await t.database.db.select().from(chapters)).length;
    for (const title of ['', '   ', 'x'.repeat(201)]) {
      const res = await inject(t, { method: 'POST', url: '/api/chapter', headers: admin, payload: { title } });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/titre/);
    }
    const noTitle = await inject(t, { method: 'POST', url: '/api/chapter', headers: admin, payload: { offline: true } });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.message).toMatch(/^Données invalides/);
    expect((await t.database.db.select().from(chapters)).length).toBe(before);
  });
});

describe('PATCH /chapter/{id}', () => {
  it('updates only the fields sent', async () => {
    const c = await newChapter({ title: 'Avant', headerStudents: 'Consignes', offline: false });
    const res = await inject(t, { method: 'PATCH', url: `/api/chapter/${c.id}`, headers: admin, payload: { offline: true } });
    expect(res.body).toEqual({ message: 'Modifications enregistrées' });
    expect(await chapterRow(c.id)).toMatchObject({ title: 'Avant', headerStudents: 'Consignes', offline: true, analysis: false });
    await inject(t, {
      method: 'PATCH',
      url: `/api/chapter/${c.id}`,
      headers: admin,
      payload: { headerStudents: '$x^2$', headerCenters: 'Salle 12' },
    });
    expect(await chapterRow(c.id)).toMatchObject({ title: 'Avant', headerStudents: '$x^2$', headerCenters: 'Salle 12', offline: true });
  });

  it('replaces the access groups in order, with instants as sent', async () => {
    const c = await newChapter();
    const groups = [
      {
        name: 'filles 3e',
        authorizedGenders: ['female'],
        authorizedGrades: ['3eme'],
        birthDateMin: '2010-01-01',
        birthDateMax: '2012-12-31',
        timeDuration: 90,
        accessStart: '2026-03-29T01:00:00.000Z',
        accessEnd: '2026-03-29T03:00:00.000Z',
      },
      { name: 'all' },
    ];
    const res = await inject(t, { method: 'PATCH', url: `/api/chapter/${c.id}`, headers: admin, payload: { groups } });
    expect(res.status).toBe(200);
    const detail = await inject(t, { method: 'GET', url: `/api/chapter/${c.id}`, headers: admin });
    // No group was reserved to a selection's qualified (decision 157).
    expect(detail.body.groups).toEqual([
      { ...groups[0], requiredSelectionId: null },
      {
        name: 'all',
        authorizedGenders: [],
        authorizedGrades: [],
        birthDateMin: null,
        birthDateMax: null,
        timeDuration: null,
        accessStart: null,
        accessEnd: null,
        requiredSelectionId: null,
      },
    ]);
    // Replacing with one group leaves one row.
    await inject(t, { method: 'PATCH', url: `/api/chapter/${c.id}`, headers: admin, payload: { groups: [{ name: 'seul' }] } });
    const rows = await t.database.db.select().from(accessGroups).where(eq(accessGroups.chapterId, c.id));
    expect(rows.map((r) => [r.name, r.position])).toEqual([['seul', 0]]);
  });

  it('accepts instants with a Paris offset and stores the same instant', async () => {
    const c = await newChapter();
    await inject(t, {
      method: 'PATCH',
      url: `/api/chapter/${c.id}`,
      headers: admin,
      payload: { groups: [{ name: 'all', accessStart: '2026-10-25T02:30:00+02:00', accessEnd: '2026-10-25T02:30:00+01:00' }] },
    });
    const [row] = await t.database.db.select().from(accessGroups).where(eq(accessGroups.chapterId, c.id));
    expect(row.accessStart?.toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(row.accessEnd?.toISOString()).toBe('2026-10-25T01:30:00.000Z');
  });

  const badGroups: Array<[string, Record<string, unknown>, RegExp]> = [
    ['negative duration', { timeDuration: -5 }, /durée ne peut pas être négative/],
    ['fractional duration', { timeDuration: 1.5 }, /nombre entier de minutes/],
    [
      'end before start',
      { accessStart: '2026-05-02T10:00:00Z', accessEnd: '2026-05-02T09:00:00Z' },
      /fin de l’accès doit être après son début/,
    ],
    ['end equal to start', { accessStart: '2026-05-02T10:00:00Z', accessEnd: '2026-05-02T10:00:00Z' }, /fin de l’accès/],
    ['unknown grade', { authorizedGrades: ['CM2'] }, /Classe invalide/],
    ['unknown gender', { authorizedGenders: ['robot'] }, /Genre invalide/],
    ['impossible birth date', { birthDateMin: '2011-02-30' }, /Date invalide/],
    ['bad instant', { accessStart: 'demain matin' }, /Date et heure invalides/],
  ];
  for (const [label, group, message] of badGroups) {
    it(`rejects ${label} with a French message and keeps the old groups`, async () => {
      const c = await newChapter();
      await t.database.db.insert(accessGroups).values({ chapterId: c.id, position: 0, name: 'ancien' });
      const res = await inject(t, {
        method: 'PATCH',
        url: `/api/chapter/${c.id}`,
        headers: admin,
        payload: { title: 'Ne doit pas changer', groups: [{ name: 'all', ...group }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
      const rows = await t.database.db.select().from(accessGroups).where(eq(accessGroups.chapterId, c.id));
      expect(rows.map((r) => r.name)).toEqual(['ancien']);
      expect((await chapterRow(c.id)).title).toBe('Chapitre de test');
    });
  }

  it('rejects an empty title and answers 404 for an unknown chapter', async () => {
    const c = await newChapter();
    const res = await inject(t, { method: 'PATCH', url: `/api/chapter/${c.id}`, headers: admin, payload: { title: ' ' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Le titre ne peut pas être vide/);
    const missing = await inject(t, {
      method: 'PATCH',
      url: '/api/chapter/00000000-0000-4000-8000-00000000dead',
      headers: admin,
      payload: { title: 'x' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('DELETE /chapter/{id}', () => {
  it('moves the chapter to the bin, access groups kept for a restore, and answers 404 the second time', async () => {
    const c = await newChapter();
    await t.database.db.insert(accessGroups).values({ chapterId: c.id, position: 0 });
    expect((await inject(t, { method: 'DELETE', url: `/api/chapter/${c.id}`, headers: admin })).body).toEqual({
      message: 'Chapitre placé dans la corbeille',
    });
    expect((await inject(t, { method: 'GET', url: `/api/chapter/${c.id}`, headers: admin })).status).toBe(404);
    expect(await t.database.db.select().from(accessGroups).where(eq(accessGroups.chapterId, c.id))).toHaveLength(1);
    expect((await inject(t, { method: 'DELETE', url: `/api/chapter/${c.id}`, headers: admin })).status).toBe(404);
  });
});

describe('seedChaptersDemo', () => {
  it('creates the timed round, the training and the paper chapter, readable through the API', async () => {
    const demo = await seedChaptersDemo(t.database.db);
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, gender: 'female', grade: '3eme' });
    const titles = (await inject(t, { method: 'GET', url: '/api/chapter', headers: pupil.headers })).body.map(
      (c: { title: string }) => c.title,
    );
    expect(titles).toEqual(expect.arrayContaining(['Coupe Olympe 2026 — Tour 1', 'Entraînement — Calcul', 'Épreuve papier — Demi-finale']));
    const timed = await inject(t, { method: 'GET', url: `/api/chapter/${demo.timedId}`, headers: admin });
    expect(timed.body.groups).toMatchObject([{ name: 'all', timeDuration: 60 }]);
    const pageOf = () => inject(t, { method: 'GET', url: `/api/exos/chapter/${demo.timedId}`, headers: pupil.headers });
    // A timed chapter gives its statements only once the pupil has started it.
    expect((await pageOf()).body.exercises).toEqual([]);
    expect((await inject(t, { method: 'POST', url: `/api/chapter/start/${demo.timedId}`, headers: pupil.headers })).status).toBe(200);
    const page = await pageOf();
    expect(page.body.exercises.map((e: { answerFormat: string }) => e.answerFormat)).toEqual(['numeric', 'numeric', 'numeric', 'pdf']);
    const raw = await inject(t, { method: 'GET', url: `/api/exos/raw/${demo.timedId}`, headers: admin });
    expect(raw.body.slice(0, 3).every((e: { statementVersions: unknown[] }) => e.statementVersions.length === 2)).toBe(true);
    const paper = await inject(t, { method: 'GET', url: `/api/chapter/${demo.paperId}`, headers: admin });
    expect(paper.body).toMatchObject({ offline: true });
    expect(paper.body.headerCenters).not.toBe('');
    expect(demo.exerciseIds.paper).toHaveLength(2);
  });
});
