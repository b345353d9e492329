import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { richTextHtml } from '@olympe/rich-text/html';
import { accessGroups, chapterSessions, chapters, exercises, statementVersions } from '../src/db/schema.js';
import { pickVersionIndex } from '../src/exercises/versions.js';
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

/** A chapter open to everyone, with one numeric exercise of three versions. */
async function seed(fields: Partial<typeof chapters.$inferInsert> = {}, group: Partial<typeof accessGroups.$inferInsert> = {}) {
  const [chapter] = await t.database.db
    .insert(chapters)
    .values({ title: 'Tour test', headerStudents: 'Bonne chance', ...fields })
    .returning();
  await t.database.db.insert(accessGroups).values({ chapterId: chapter.id, position: 0, name: 'all', ...group });
  const [exercise] = await t.database.db
    .insert(exercises)
    .values({ chapterId: chapter.id, position: 0, title: 'Somme', answerFormat: 'numeric' })
    .returning();
  await t.database.db.insert(statementVersions).values([
    { exerciseId: exercise.id, position: 0, content: 'Version A : $1+1$', answer: '2' },
    { exerciseId: exercise.id, position: 1, content: 'Version B : $2+2$', answer: '4' },
    { exerciseId: exercise.id, position: 2, content: 'Version C : $3+3$', answer: '6' },
  ]);
  return { chapter, exercise };
}

const versionsOf = async (exerciseId: string) =>
  t.database.db
    .select({ content: statementVersions.content, answer: statementVersions.answer })
    .from(statementVersions)
    .where(eq(statementVersions.exerciseId, exerciseId))
    .orderBy(asc(statementVersions.position));

describe('exercise routes: who may call them', () => {
  const admins: RoleName[] = ['admin'];
  for (const role of ROLES) {
    it(`GET /exos/raw/{chapterId} as ${role}`, async () => {
      const { chapter } = await seed();
      const res = await inject(t, { method: 'GET', url: `/api/exos/raw/${chapter.id}`, headers: await loginAs(t, role) });
      expect(res.status).toBe(expected(role, admins, 200));
    });
    it(`POST /exos as ${role}`, async () => {
      const { chapter } = await seed();
      const res = await inject(t, { method: 'POST', url: '/api/exos', headers: await loginAs(t, role), payload: { chapter: chapter.id } });
      expect(res.status).toBe(expected(role, admins, 201));
      const count = (await t.database.db.select().from(exercises).where(eq(exercises.chapterId, chapter.id))).length;
      expect(count).toBe(role === 'admin' ? 2 : 1);
    });
    it(`PATCH /exos/{id} as ${role}`, async () => {
      const { exercise } = await seed();
      const res = await inject(t, {
        method: 'PATCH',
        url: `/api/exos/${exercise.id}`,
        headers: await loginAs(t, role),
        payload: { title: 'Nouveau titre' },
      });
      expect(res.status).toBe(expected(role, admins, 200));
      const [row] = await t.database.db.select().from(exercises).where(eq(exercises.id, exercise.id));
      expect(row.title).toBe(role === 'admin' ? 'Nouveau titre' : 'Somme');
    });
    it(`DELETE /exos/{id} as ${role}`, async () => {
      const { exercise } = await seed();
      const res = await inject(t, { method: 'DELETE', url: `/api/exos/${exercise.id}`, headers: await loginAs(t, role) });
      expect(res.status).toBe(expected(role, admins, 200));
    });
    it(`GET /exos/latex/{chapterId} as ${role}`, async () => {
      const { chapter } = await seed();
      const res = await inject(t, { method: 'GET', url: `/api/exos/latex/${chapter.id}`, headers: await loginAs(t, role) });
      expect(res.status).toBe(expected(role, admins, 200));
    });
    it(`GET /exos/{eid} and /exos/chapter/{id} as ${role}`, async () => {
      const { chapter, exercise } = await seed();
      const headers = await loginAs(t, role);
      const all: RoleName[] = ['pupil', 'teacher', 'member', 'admin'];
      expect((await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers })).status).toBe(expected(role, all, 200));
      expect((await inject(t, { method: 'GET', url: `/api/exos/chapter/${chapter.id}`, headers })).status).toBe(expected(role, all, 200));
    });
  }

  it('answers 400 in French for malformed ids', async () => {
    for (const url of ['/api/exos/raw/abc', '/api/exos/abc', '/api/exos/chapter/abc', '/api/exos/latex/abc']) {
      const res = await inject(t, { method: 'GET', url, headers: admin });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/Identifiant .*invalide/);
    }
  });
});

describe('exercise CRUD', () => {
  it('creates with the defaults of docs/product.md#spec-9, appended at the end', async () => {
    const { chapter } = await seed();
    const res = await inject(t, { method: 'POST', url: '/api/exos', headers: admin, payload: { chapter: chapter.id } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Nouvel exercice',
      answerFormat: 'numeric',
      chapter: chapter.id,
      statementVersions: [{ content: 'Nouvelle version', answer: null }],
      message: 'Exercice créé',
    });
    const raw = await inject(t, { method: 'GET', url: `/api/exos/raw/${chapter.id}`, headers: admin });
    expect(raw.body.map((e: { title: string }) => e.title)).toEqual(['Somme', 'Nouvel exercice']);
    expect(raw.body[0].statementVersions).toEqual([
      { content: 'Version A : $1+1$', answer: '2' },
      { content: 'Version B : $2+2$', answer: '4' },
      { content: 'Version C : $3+3$', answer: '6' },
    ]);
  });

  it('updates title, format and versions; answers are dropped for non-numeric formats', async () => {
    const { exercise } = await seed();
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/exos/${exercise.id}`,
      headers: admin,
      payload: { statementVersions: [{ content: 'Unique', answer: ' 3,5 ' }] },
    });
    expect(res.body).toEqual({ message: 'Modifications enregistrées' });
    expect(await versionsOf(exercise.id)).toEqual([{ content: 'Unique', answer: '3,5' }]);
    await inject(t, {
      method: 'PATCH',
      url: `/api/exos/${exercise.id}`,
      headers: admin,
      payload: { answerFormat: 'pdf', title: 'Rédaction' },
    });
    expect(await versionsOf(exercise.id)).toEqual([{ content: 'Unique', answer: null }]);
    const [row] = await t.database.db.select().from(exercises).where(eq(exercises.id, exercise.id));
    expect(row).toMatchObject({ title: 'Rédaction', answerFormat: 'pdf' });
  });

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an empty title', { title: '  ' }, /Le titre ne peut pas être vide/],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, /trop long/],
    ['an unknown format', { answerFormat: 'essay' }, /Type de réponse invalide/],
    ['no version', { statementVersions: [] }, /au moins une version/],
    [
      'a non-numeric expected answer',
      {
        statementVersions: [
          { content: 'a', answer: '12' },
          { content: 'b', answer: 'douze' },
        ],
      },
      /version 2 n’est pas un nombre/,
    ],
  ];
  for (const [label, payload, message] of bad) {
    it(`rejects ${label} (400, French) and changes nothing`, async () => {
      const { chapter, exercise } = await seed();
      const patch = await inject(t, {
        method: 'PATCH',
        url: `/api/exos/${exercise.id}`,
        headers: admin,
        payload: { title: 'Changé', ...payload },
      });
      expect(patch.status).toBe(400);
      expect(patch.body.message).toMatch(message);
      const post = await inject(t, { method: 'POST', url: '/api/exos', headers: admin, payload: { chapter: chapter.id, ...payload } });
      expect(post.status).toBe(400);
      expect(post.body.message).toMatch(message);
      const rows = await t.database.db.select().from(exercises).where(eq(exercises.chapterId, chapter.id));
      expect(rows.map((r) => r.title)).toEqual(['Somme']);
      expect((await versionsOf(exercise.id)).length).toBe(3);
    });
  }

  it('checks stored answers against a new numeric format', async () => {
    const { chapter } = await seed();
    const created = await inject(t, {
      method: 'POST',
      url: '/api/exos',
      headers: admin,
      payload: { chapter: chapter.id, answerFormat: 'none', statementVersions: [{ content: 'Lire', answer: 'abc' }] },
    });
    expect(created.body.statementVersions).toEqual([{ content: 'Lire', answer: null }]);
    // Versions alone on a numeric exercise are checked too (the format is not in the body).
    const { exercise } = await seed();
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/exos/${exercise.id}`,
      headers: admin,
      payload: { statementVersions: [{ content: 'x', answer: 'x' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('La réponse attendue de la version 1 n’est pas un nombre.');
  });

  it('refuses an unknown chapter and answers 404 for unknown exercises', async () => {
    const res = await inject(t, {
      method: 'POST',
      url: '/api/exos',
      headers: admin,
      payload: { chapter: '00000000-0000-4000-8000-00000000dead' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Chapitre introuvable.');
    const missing = '00000000-0000-4000-8000-0000000000ee';
    expect((await inject(t, { method: 'PATCH', url: `/api/exos/${missing}`, headers: admin, payload: { title: 'x' } })).status).toBe(404);
    expect((await inject(t, { method: 'DELETE', url: `/api/exos/${missing}`, headers: admin })).status).toBe(404);
    expect((await inject(t, { method: 'GET', url: `/api/exos/${missing}`, headers: admin })).body.message).toBe('Exercice introuvable.');
  });

  it('moves an exercise to the bin, its versions kept for a restore', async () => {
    const { exercise } = await seed();
    expect((await inject(t, { method: 'DELETE', url: `/api/exos/${exercise.id}`, headers: admin })).body).toEqual({
      message: 'Exercice placé dans la corbeille',
    });
    expect((await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers: admin })).status).toBe(404);
    expect(await versionsOf(exercise.id)).toHaveLength(3);
  });
});

describe('what pupils read', () => {
  it('gives a pupil only their assigned version, never an expected answer', async () => {
    const { chapter, exercise } = await seed();
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const index = pickVersionIndex(pupil.id, exercise.id, 3);
    const statement = ['Version A : $1+1$', 'Version B : $2+2$', 'Version C : $3+3$'][index];

    const one = await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers: pupil.headers });
    expect(one.body).toEqual({ _id: exercise.id, title: 'Somme', answerFormat: 'numeric', chapter: chapter.id, statement, maxPoints: 1 });

    const page = await inject(t, { method: 'GET', url: `/api/exos/chapter/${chapter.id}`, headers: pupil.headers });
    expect(page.body).toEqual({
      _id: chapter.id,
      title: 'Tour test',
      offline: false,
      analysis: false,
      headerStudents: 'Bonne chance',
      // Decision 122: drawn by the server, the assigned version only.
      headerStudentsHtml: '<p>Bonne chance</p>',
      exercises: [
        {
          _id: exercise.id,
          title: 'Somme',
          answerFormat: 'numeric',
          chapter: chapter.id,
          statement,
          statementHtml: richTextHtml(statement),
          maxPoints: 1,
        },
      ],
      maxTotal: 1,
    });
    expect(page.body.exercises[0].statementHtml).toContain(
      `<annotation encoding="application/x-tex">${/\$(.+)\$/.exec(statement)![1]}</annotation>`,
    );
    expect(JSON.stringify(page.body)).not.toMatch(/"answer"|statementVersions/);
  });

  it('keeps a pupil on the same version when contents change, not when the count changes', async () => {
    const { exercise } = await seed();
    // Find a pupil whose version moves when a fourth version is added.
    let pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    while (pickVersionIndex(pupil.id, exercise.id, 3) === pickVersionIndex(pupil.id, exercise.id, 4))
      pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const read = async () => (await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers: pupil.headers })).body.statement;
    const index = pickVersionIndex(pupil.id, exercise.id, 3);
    const edited = ['A modifiée', 'B modifiée', 'C modifiée'];
    await inject(t, {
      method: 'PATCH',
      url: `/api/exos/${exercise.id}`,
      headers: admin,
      payload: { statementVersions: edited.map((content) => ({ content, answer: '1' })) },
    });
    expect(await read()).toBe(edited[index]);
    const four = [...edited, 'D'];
    await inject(t, {
      method: 'PATCH',
      url: `/api/exos/${exercise.id}`,
      headers: admin,
      payload: { statementVersions: four.map((content) => ({ content })) },
    });
    expect(await read()).toBe(four[pickVersionIndex(pupil.id, exercise.id, 4)]);
    expect(await read()).not.toBe(edited[index]);
  });

  it('gives members and admins every version with the expected answers', async () => {
    const { chapter, exercise } = await seed();
    for (const role of ['member', 'admin'] as const) {
      const headers = await loginAs(t, role);
      const one = await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers });
      expect(one.body.statementVersions.map((v: { answer: string }) => v.answer)).toEqual(['2', '4', '6']);
      const page = await inject(t, { method: 'GET', url: `/api/exos/chapter/${chapter.id}`, headers });
      expect(page.body.exercises[0].statementVersions).toHaveLength(3);
    }
    // A teacher the access group admits reads like a pupil.
    const teacher = await loginAs(t, 'teacher');
    const asTeacher = await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers: teacher });
    expect(asTeacher.body.statementVersions).toBeUndefined();
  });

  it('refuses pupils no access group admits', async () => {
    const { chapter, exercise } = await seed({}, { authorizedGrades: ['Tale'] });
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE, grade: '4eme' });
    const one = await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers: pupil.headers });
    expect(one.status).toBe(403);
    const page = await inject(t, { method: 'GET', url: `/api/exos/chapter/${chapter.id}`, headers: pupil.headers });
    expect(page.status).toBe(403);
    expect(page.body.message).toBe('Vous n’avez pas accès à ce chapitre.');
    // Whether a group admits a pupil depends on the profile: an incomplete one is told to complete it.
    const incomplete = await createUser(t, 'pupil', { grade: '4eme' });
    const refused = await inject(t, { method: 'GET', url: `/api/exos/chapter/${chapter.id}`, headers: incomplete.headers });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Complétez votre profil pour accéder aux contenus.');
  });

  it('gives a timed chapter’s statements only while the pupil’s session runs', async () => {
    const { chapter } = await seed({}, { timeDuration: 30 });
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const statements = async () => {
      const page = await inject(t, { method: 'GET', url: `/api/exos/chapter/${chapter.id}`, headers: pupil.headers });
      expect(page.status).toBe(200);
      return page.body.exercises.length;
    };
    expect(await statements()).toBe(0);
    expect((await inject(t, { method: 'POST', url: `/api/chapter/start/${chapter.id}`, headers: pupil.headers })).status).toBe(200);
    expect(await statements()).toBe(1);
    await t.database.db
      .update(chapterSessions)
      .set({ startedAt: new Date(Date.now() - 3600_000), endTime: new Date(Date.now() - 1800_000) })
      .where(eq(chapterSessions.userId, pupil.id));
    expect(await statements()).toBe(0);
  });

  it('withholds statements before the window opens and for unpublished paper chapters', async () => {
    const future = await seed({}, { accessStart: new Date(Date.now() + 3600_000) });
    const paper = await seed({ offline: true });
    const published = await seed({ offline: true, analysis: true });
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    for (const { chapter, exercise } of [future, paper]) {
      const page = await inject(t, { method: 'GET', url: `/api/exos/chapter/${chapter.id}`, headers: pupil.headers });
      expect(page.status).toBe(200);
      expect(page.body.exercises).toEqual([]);
      const one = await inject(t, { method: 'GET', url: `/api/exos/${exercise.id}`, headers: pupil.headers });
      expect(one.status).toBe(403);
      expect(one.body.message).toBe('Cet exercice n’est pas disponible.');
    }
    const page = await inject(t, { method: 'GET', url: `/api/exos/chapter/${published.chapter.id}`, headers: pupil.headers });
    expect(page.body.exercises).toHaveLength(1);
  });
});

describe('GET /exos/latex/{chapterId}', () => {
  it('sends a .tex named after the chapter title', async () => {
    const { chapter } = await seed({ title: 'Tour 1 : « été » & co' });
    const res = await t.app.inject({ method: 'GET', url: `/api/exos/latex/${chapter.id}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-tex/);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Tour 1 « été » & co.tex')}`);
    expect(res.body).toContain('\\section*{Exercice 1 : Somme}');
    expect(res.body).toContain('Tour 1 : « été » \\& co');
    expect(res.body).toContain('\\subsection*{Version 3}');
    expect(res.body).not.toContain('answer');
  });
});
