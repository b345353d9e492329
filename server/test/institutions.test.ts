import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centers, chapters, HOME_SCHOOLING_ID, institutions, users } from '../src/db/schema.js';
import { seedInstitutionsDemo } from '../src/institutions/demo.js';
import { MAX_PENDING_INSTITUTIONS } from '../src/institutions/service.js';
import { importSchoolsFile, upsertSchools } from '../src/institutions/import.js';
import { assertProfileComplete, PROFILE_INCOMPLETE_MESSAGE } from '../src/users/service.js';
import { buildTestApp, createUser, inject, loginAs, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const ROLES: RoleName[] = ['anonymous', 'pupil', 'teacher', 'member', 'admin'];
const LOGGED_IN = ['pupil', 'teacher', 'member', 'admin'];
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'annuaire-sample.csv');

async function insertInstitution(fields: Partial<typeof institutions.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(institutions)
    .values({ name: 'Collège Test', address: '1 rue Test', latitude: 46, longitude: 2, ...fields })
    .returning();
  return row;
}
const rowOf = async (id: string) => (await t.database.db.select().from(institutions).where(eq(institutions.id, id)))[0];
const countInstitutions = async () => (await t.database.db.select({ id: institutions.id }).from(institutions)).length;

describe('guards of every institution route', () => {
  for (const role of ROLES) {
    const allowed = LOGGED_IN.includes(role);
    it(`GET /institution as ${role} → ${allowed ? 200 : 401}`, async () => {
      const res = await inject(t, { method: 'GET', url: '/api/institution', headers: await loginAs(t, role) });
      expect(res.status).toBe(allowed ? 200 : 401);
    });

    it(`POST /institution as ${role} → ${allowed ? 200 : 401}`, async () => {
      const res = await inject(t, {
        method: 'POST',
        url: '/api/institution',
        headers: await loginAs(t, role),
        payload: { name: `Collège de ${role}`, latitude: 45, longitude: 3 },
      });
      expect(res.status).toBe(allowed ? 200 : 401);
      if (!allowed) expect(res.body.message).toBe('Vous devez vous connecter.');
    });

    // Someone else's institution: only an admin may change or delete it.
    const adminOnly = role === 'admin' ? 200 : role === 'anonymous' ? 401 : 403;
    it(`PATCH /institution/{id} of another user's school as ${role} → ${adminOnly}`, async () => {
      const other = await createUser(t, 'pupil');
      const row = await insertInstitution({ createdBy: other.id, name: 'Avant' });
      const res = await inject(t, {
        method: 'PATCH',
        url: `/api/institution/${row.id}`,
        headers: await loginAs(t, role),
        payload: { name: 'Après' },
      });
      expect(res.status).toBe(adminOnly);
      expect((await rowOf(row.id)).name).toBe(role === 'admin' ? 'Après' : 'Avant');
    });

    it(`DELETE /institution/{id} as ${role} → ${adminOnly}`, async () => {
      const row = await insertInstitution();
      const res = await inject(t, { method: 'DELETE', url: `/api/institution/${row.id}`, headers: await loginAs(t, role) });
      expect(res.status).toBe(adminOnly);
      if (adminOnly === 403) expect(res.body.message).toMatch(/accès/);
      expect(!!(await rowOf(row.id))).toBe(role !== 'admin');
    });
  }
});

describe('GET /institution', () => {
  it('lists home schooling first, confirmed, with the spec field names only', async () => {
    await insertInstitution({ name: 'Aaa premier par le nom', uai: '0000001A' });
    const res = await inject(t, { method: 'GET', url: '/api/institution', headers: await loginAs(t, 'pupil') });
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      _id: HOME_SCHOOLING_ID,
      name: 'Instruction en famille',
      address: '',
      email: null,
      latitude: null,
      longitude: null,
      confirmed: true,
    });
    for (const item of res.body) {
      expect(Object.keys(item).sort()).toEqual(['_id', 'address', 'confirmed', 'email', 'latitude', 'longitude', 'name']);
    }
  });

  it('is compressed when the client accepts it', async () => {
    // Over the compression threshold even for a pupil, who sees confirmed schools only.
    for (let i = 0; i < 20; i++) await insertInstitution({ name: `Lycée confirmé ${i}`, confirmed: true });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/institution',
      headers: { ...(await loginAs(t, 'pupil')), 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString('utf8'))[0]._id).toBe(HOME_SCHOOLING_ID);
  });
});

describe('POST /institution', () => {
  it('creates an unconfirmed school remembered as the caller’s', async () => {
    const pupil = await createUser(t, 'pupil');
    const res = await inject(t, {
      method: 'POST',
      url: '/api/institution',
      headers: pupil.headers,
      payload: {
        name: ' Collège Sainte-Thérèse ',
        address: '5 rue Haute, 51100 Reims',
        email: 'Ce.0510001A@ac-reims.fr',
        latitude: 49.25,
        longitude: 4.03,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Établissement enregistré');
    expect(res.body.institution).toMatchObject({ name: 'Collège Sainte-Thérèse', email: 'ce.0510001a@ac-reims.fr', confirmed: false });
    const row = await rowOf(res.body.institution._id);
    expect(row).toMatchObject({ confirmed: false, createdBy: pupil.id, address: '5 rue Haute, 51100 Reims' });
  });

  it('lets an admin create a confirmed school, refuses `confirmed` from anyone else', async () => {
    const admin = await createUser(t, 'admin');
    const ok = await inject(t, {
      method: 'POST',
      url: '/api/institution',
      headers: admin.headers,
      payload: { name: 'Lycée vérifié', latitude: 45, longitude: 3, confirmed: true },
    });
    expect(ok.body.institution.confirmed).toBe(true);
    const before = await countInstitutions();
    for (const role of ['pupil', 'teacher', 'member'] as const) {
      const res = await inject(t, {
        method: 'POST',
        url: '/api/institution',
        headers: await loginAs(t, role),
        payload: { name: 'Lycée auto-vérifié', latitude: 45, longitude: 3, confirmed: true },
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Seul un administrateur peut vérifier un établissement.');
    }
    expect(await countInstitutions()).toBe(before);
  });

  it('refuses bad input in French and saves nothing', async () => {
    const headers = await loginAs(t, 'admin');
    const before = await countInstitutions();
    for (const bad of [
      { latitude: 45, longitude: 3 },
      { name: '   ', latitude: 45, longitude: 3 },
      { name: 'X'.repeat(201), latitude: 45, longitude: 3 },
      { name: 'Sans coordonnées' },
      { name: 'Latitude', latitude: 95, longitude: 3 },
      { name: 'Longitude', latitude: 45, longitude: -200 },
      { name: 'Texte', latitude: '45', longitude: 3 },
      { name: 'Mail', latitude: 45, longitude: 3, email: 'pas-un-mail' },
      { name: 'Vérifié', latitude: 45, longitude: 3, confirmed: 'Oui' },
    ]) {
      const res = await inject(t, { method: 'POST', url: '/api/institution', headers, payload: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(/^Données invalides/);
      expect(res.body.message).toMatch(/requis|trop long|invalide|attendu|nombre|Latitude|Longitude|oui ou non/i);
    }
    expect(await countInstitutions()).toBe(before);
  });
});

describe('pending (unconfirmed) schools', () => {
  const propose = (headers: Record<string, string>, name: string) =>
    inject(t, { method: 'POST', url: '/api/institution', headers, payload: { name, latitude: 44.5, longitude: 2.5 } });
  const listedIds = async (headers: Record<string, string>) =>
    ((await inject(t, { method: 'GET', url: '/api/institution', headers })).body as Array<{ _id: string }>).map((i) => i._id);

  it('a pupil or teacher holds at most 3 pending proposals; a confirmation frees a place; admins are not limited', async () => {
    expect(MAX_PENDING_INSTITUTIONS).toBe(3);
    const admin = await createUser(t, 'admin');
    for (const role of ['pupil', 'teacher'] as const) {
      const author = await createUser(t, role);
      const ids: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const res = await propose(author.headers, `Proposition ${role} ${i}`);
        expect(res.status).toBe(200);
        ids.push(res.body.institution._id);
      }
      const before = await countInstitutions();
      const refused = await propose(author.headers, `Proposition ${role} 4`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(
        'Vous avez déjà 3 établissements en attente de vérification : modifiez l’un d’eux ou attendez qu’un administrateur les vérifie.',
      );
      expect(await countInstitutions()).toBe(before);

      await inject(t, { method: 'PATCH', url: `/api/institution/${ids[0]}`, headers: admin.headers, payload: { confirmed: true } });
      expect((await propose(author.headers, `Proposition ${role} 4`)).status).toBe(200);
      expect((await propose(author.headers, `Proposition ${role} 5`)).status).toBe(409);
    }
    for (let i = 0; i < 5; i++) expect((await propose(admin.headers, `Ajout administrateur ${i}`)).status).toBe(200);
  });

  it('counts parallel proposals one after the other: a burst never passes the limit', async () => {
    const pupil = await createUser(t, 'pupil');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => propose(pupil.headers, `Rafale ${i}`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    const rows = await t.database.db.select({ id: institutions.id }).from(institutions).where(eq(institutions.createdBy, pupil.id));
    expect(rows).toHaveLength(3);
  });

  it('lists a pending school only to its author, to admins and to its users, to everyone once confirmed', async () => {
    const author = await createUser(t, 'pupil');
    const other = await createUser(t, 'pupil');
    const teacher = await createUser(t, 'teacher');
    const admin = await createUser(t, 'admin');
    const res = await propose(author.headers, 'Collège fantôme');
    const id = res.body.institution._id as string;
    const attached = await createUser(t, 'pupil', { institutionId: id });

    expect(await listedIds(author.headers)).toContain(id);
    expect(await listedIds(admin.headers)).toContain(id);
    expect(await listedIds(attached.headers)).toContain(id);
    expect(await listedIds(other.headers)).not.toContain(id);
    expect(await listedIds(teacher.headers)).not.toContain(id);
    // The author can still pick it in their profile.
    const picked = await inject(t, { method: 'PUT', url: '/api/auth/me', headers: author.headers, payload: { institution: id } });
    expect(picked.status).toBe(200);
    expect(picked.body.institution).toMatchObject({ _id: id, name: 'Collège fantôme' });

    await inject(t, { method: 'PATCH', url: `/api/institution/${id}`, headers: admin.headers, payload: { confirmed: true } });
    expect(await listedIds(other.headers)).toContain(id);
    expect(await listedIds(teacher.headers)).toContain(id);
  });
});

describe('PATCH /institution/{id}', () => {
  it('lets the creator edit their school while it is unconfirmed, never confirm it', async () => {
    const pupil = await createUser(t, 'pupil');
    const row = await insertInstitution({ createdBy: pupil.id });
    const moved = await inject(t, {
      method: 'PATCH',
      url: `/api/institution/${row.id}`,
      headers: pupil.headers,
      payload: { latitude: 47.5, longitude: 1.5, email: '' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      message: 'Modifications enregistrées',
      institution: { latitude: 47.5, longitude: 1.5, email: null, name: 'Collège Test' },
    });

    const confirm = await inject(t, {
      method: 'PATCH',
      url: `/api/institution/${row.id}`,
      headers: pupil.headers,
      payload: { confirmed: true, name: 'Renommé' },
    });
    expect(confirm.status).toBe(403);
    expect(confirm.body.message).toBe('Seul un administrateur peut vérifier un établissement.');
    expect(await rowOf(row.id)).toMatchObject({ confirmed: false, name: 'Collège Test' });
  });

  it('locks the school for its creator once an admin confirmed it', async () => {
    const teacher = await createUser(t, 'teacher');
    const admin = await createUser(t, 'admin');
    const row = await insertInstitution({ createdBy: teacher.id });
    const confirmed = await inject(t, {
      method: 'PATCH',
      url: `/api/institution/${row.id}`,
      headers: admin.headers,
      payload: { confirmed: true },
    });
    expect(confirmed.body.institution.confirmed).toBe(true);
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/institution/${row.id}`,
      headers: teacher.headers,
      payload: { name: 'Changé' },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Vous ne pouvez pas modifier cet établissement.');
    expect((await rowOf(row.id)).name).toBe('Collège Test');
    // An admin may also withdraw the confirmation.
    const back = await inject(t, {
      method: 'PATCH',
      url: `/api/institution/${row.id}`,
      headers: admin.headers,
      payload: { confirmed: false },
    });
    expect(back.body.institution.confirmed).toBe(false);
  });

  it('answers 404 for an unknown id and 400 for a garbage id or bad values, changing nothing', async () => {
    const headers = await loginAs(t, 'admin');
    const unknown = await inject(t, {
      method: 'PATCH',
      url: '/api/institution/00000000-0000-4000-8000-0000000000ff',
      headers,
      payload: { name: 'X' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Établissement introuvable.');
    const garbage = await inject(t, { method: 'PATCH', url: '/api/institution/../../etc', headers, payload: { name: 'X' } });
    expect([400, 404]).toContain(garbage.status);
    const notUuid = await inject(t, { method: 'PATCH', url: '/api/institution/123', headers, payload: { name: 'X' } });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.message).toMatch(/Identifiant d’établissement invalide/);
    const row = await insertInstitution({ name: 'Intact' });
    for (const bad of [{ name: '' }, { latitude: 100 }, { email: 'non' }, { confirmed: 'Non' }, { name: 3 }]) {
      const res = await inject(t, { method: 'PATCH', url: `/api/institution/${row.id}`, headers, payload: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(/^Données invalides/);
    }
    expect(await rowOf(row.id)).toMatchObject({ name: 'Intact', latitude: 46, email: null, confirmed: false });
  });
});

describe('DELETE /institution/{id}', () => {
  it('deletes an unused school', async () => {
    const row = await insertInstitution();
    const res = await inject(t, { method: 'DELETE', url: `/api/institution/${row.id}`, headers: await loginAs(t, 'admin') });
    expect(res.body).toEqual({ message: 'Établissement supprimé' });
    expect(await rowOf(row.id)).toBeUndefined();
  });

  it('refuses while users or centres reference it, and never deletes home schooling', async () => {
    const headers = await loginAs(t, 'admin');
    const withPupil = await insertInstitution();
    await createUser(t, 'pupil', { institutionId: withPupil.id });
    const r1 = await inject(t, { method: 'DELETE', url: `/api/institution/${withPupil.id}`, headers });
    expect(r1.status).toBe(409);
    expect(r1.body.message).toBe('Des utilisateurs sont rattachés à cet établissement : il ne peut pas être supprimé.');

    const withCentre = await insertInstitution();
    const [chapter] = await t.database.db.insert(chapters).values({ title: 'Épreuve papier', offline: true }).returning();
    await t.database.db.insert(centers).values({ chapterId: chapter.id, institutionId: withCentre.id, opened: true });
    const r2 = await inject(t, { method: 'DELETE', url: `/api/institution/${withCentre.id}`, headers });
    expect(r2.status).toBe(409);
    expect(r2.body.message).toBe('Cet établissement est un centre d’examen : il ne peut pas être supprimé.');

    const r3 = await inject(t, { method: 'DELETE', url: `/api/institution/${HOME_SCHOOLING_ID}`, headers });
    expect(r3.status).toBe(409);
    expect(r3.body.message).toMatch(/Instruction en famille/);

    for (const id of [withPupil.id, withCentre.id, HOME_SCHOOLING_ID]) expect(await rowOf(id)).toBeDefined();
  });

  it('answers 404 for an unknown id, 400 for a malformed one', async () => {
    const headers = await loginAs(t, 'admin');
    expect((await inject(t, { method: 'DELETE', url: '/api/institution/00000000-0000-4000-8000-0000000000ff', headers })).status).toBe(404);
    const bad = await inject(t, { method: 'DELETE', url: '/api/institution/not-a-uuid', headers });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/invalide/);
  });
});

describe('import of the national directory', () => {
  it('imports collèges and lycées, reports rows without coordinates and bad rows, upserts by UAI', async () => {
    const progress: number[] = [];
    const summary = await importSchoolsFile(t.database.db, FIXTURE, { onProgress: (read, total) => progress.push(read / total) });
    expect(summary).toMatchObject({ rows: 15, created: 8, updated: 0, ignored: 2, duplicates: 1 });
    expect(summary.noCoordinates).toEqual([{ line: 6, uai: '0290005E', name: 'Collège des Îles du Ponant' }]);
    expect(summary.bad.map((b) => b.line)).toEqual([7, 8, 9]);
    expect(summary.bad[0].reason).toMatch(/UAI/);
    expect(summary.bad[1].reason).toMatch(/colonnes/);
    expect(summary.bad[2].reason).toMatch(/coordonnées/);
    expect(progress.at(-1)).toBe(1);

    const byUai = async (uai: string) => (await t.database.db.select().from(institutions).where(eq(institutions.uai, uai)))[0];
    expect(await byUai('0750001A')).toMatchObject({
      name: 'Collège Émile Zola',
      address: '12 rue de la Paix, 75002 Paris',
      email: 'ce.0750001a@ac-paris.fr',
      latitude: 48.8686,
      longitude: 2.3316,
      confirmed: true,
    });
    // The later row of a duplicated UAI wins; quoted fields with ; "" and line breaks survive.
    expect((await byUai('0690002B')).name).toBe('Lycée Sainte-Hélène (nouveau nom)');
    expect(await byUai('0210012M')).toMatchObject({
      name: 'Collège "Les Tilleuls"; annexe',
      address: '2 allée des Tilleuls Bâtiment B, 21000 Dijon',
    });
    expect((await byUai('0440009J')).email).toBeNull();
    for (const skipped of ['0130003C', '0290005E', '0670008H', '0750013N']) expect(await byUai(skipped)).toBeUndefined();
  });

  it('is idempotent: a second run updates, never duplicates, and re-confirms edited rows', async () => {
    const before = await countInstitutions();
    await t.database.db.update(institutions).set({ name: 'Renommé à la main', confirmed: false }).where(eq(institutions.uai, '0750001A'));
    const summary = await importSchoolsFile(t.database.db, FIXTURE, { batchSize: 3 });
    expect(summary).toMatchObject({ created: 0, updated: 8 });
    expect(await countInstitutions()).toBe(before);
    const [row] = await t.database.db.select().from(institutions).where(eq(institutions.uai, '0750001A'));
    expect(row).toMatchObject({ name: 'Collège Émile Zola', confirmed: true });
  });

  it('isolates a row the database refuses: the rest of its batch is still imported', async () => {
    const school = (uai: string, name: string) => ({ uai, name, address: '', email: null, latitude: 45, longitude: 4 });
    const res = await upsertSchools(t.database.db, [
      school('0420001A', 'Collège Bon'),
      school('0420002B', 'Nul\u0000octet'),
      school('0420003C', 'Lycée Bon'),
    ]);
    expect(res.created.sort()).toEqual(['0420001A', '0420003C']);
    expect(res.failed.map((f) => f.uai)).toEqual(['0420002B']);
  });

  it('refuses a file that is not the directory export', async () => {
    await expect(importSchoolsFile(t.database.db, path.join(import.meta.dirname, 'helpers.ts'))).rejects.toThrow(/colonnes manquantes/);
  });
});

describe('demo schools', () => {
  it('seeds ~30 schools, some unconfirmed, some sharing a location, and is re-runnable', async () => {
    const ids = await seedInstitutionsDemo(t.database.db);
    expect(ids.length).toBeGreaterThanOrEqual(25);
    expect(new Set(ids).size).toBe(ids.length);
    const rows = await Promise.all(ids.map(rowOf));
    expect(rows.some((r) => !r.confirmed)).toBe(true);
    const keys = rows.map((r) => `${r.latitude},${r.longitude}`);
    expect(new Set(keys).size).toBeLessThan(keys.length);
    expect(await seedInstitutionsDemo(t.database.db)).toEqual(ids);
  });
});

describe('assertProfileComplete (chapter content gate)', () => {
  const auth = (id: string, roles: Partial<{ isAdmin: boolean; isMember: boolean; isTeacher: boolean }> = {}) => ({
    userId: id,
    isAdmin: false,
    isMember: false,
    isTeacher: false,
    institutionId: null,
    ...roles,
  });
  const base = { firstName: 'Léa', lastName: 'Durand', gender: 'female', institutionId: HOME_SCHOOLING_ID };

  it('refuses a pupil with an incomplete profile with 403 and the sidebar’s French text', async () => {
    const pupil = await createUser(t, 'pupil', base);
    await expect(assertProfileComplete(t.database.db, auth(pupil.id))).rejects.toMatchObject({
      statusCode: 403,
      message: PROFILE_INCOMPLETE_MESSAGE,
    });
    expect(PROFILE_INCOMPLETE_MESSAGE).toBe('Complétez votre profil pour accéder aux contenus.');
  });

  it('lets a complete pupil through, and staff with only the common fields', async () => {
    const pupil = await createUser(t, 'pupil', {
      ...base,
      birthDate: '2010-01-01',
      grade: '3eme',
      defaultChoice: 'local',
      emailParent: 'p@exemple.fr',
    });
    await expect(assertProfileComplete(t.database.db, auth(pupil.id))).resolves.toBeUndefined();
    const teacher = await createUser(t, 'teacher', base);
    await expect(assertProfileComplete(t.database.db, auth(teacher.id, { isTeacher: true }))).resolves.toBeUndefined();
    const member = await createUser(t, 'member', base);
    await expect(assertProfileComplete(t.database.db, auth(member.id, { isMember: true }))).resolves.toBeUndefined();
    const admin = await createUser(t, 'admin', { ...base, institutionId: null });
    await expect(assertProfileComplete(t.database.db, auth(admin.id, { isAdmin: true }))).rejects.toMatchObject({ statusCode: 403 });
  });

  it('follows profile edits made through PUT /auth/me', async () => {
    const pupil = await createUser(t, 'pupil');
    await expect(assertProfileComplete(t.database.db, auth(pupil.id))).rejects.toMatchObject({ statusCode: 403 });
    const res = await inject(t, {
      method: 'PUT',
      url: '/api/auth/me',
      headers: pupil.headers,
      payload: {
        ...base,
        institution: HOME_SCHOOLING_ID,
        institutionId: undefined,
        birthDate: '2010-01-01',
        grade: 'Tale',
        defaultChoice: 'global',
        emailParent: 'p@exemple.fr',
      },
    });
    expect(res.status).toBe(200);
    await expect(assertProfileComplete(t.database.db, auth(pupil.id))).resolves.toBeUndefined();
    void users;
  });
});
