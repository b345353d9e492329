import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, centerRegistrations, centers, chapters, groupMembers, institutions, MEMBERS_GROUP_ID } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, loginAs, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
let chapterId: string;
let onlineChapterId: string;
let closedChapterId: string;
/** A: opens with places; B: another school; NO: refuses; POLE: pole centre; NEW: never answered. */
let A: string, B: string, NO: string, POLE: string, NEW: string;
type Headers = Record<string, string>;
let teacherA: Headers;

const pupilFields = (institutionId: string | null, defaultChoice: 'local' | 'global' = 'local') => ({
  firstName: 'Sophie',
  lastName: 'Germain',
  gender: 'female',
  birthDate: '2009-04-01',
  grade: '3eme',
  defaultChoice,
  emailParent: 'parent@exemple.fr',
  institutionId,
});
const pupil = (institutionId: string | null, defaultChoice: 'local' | 'global' = 'local') =>
  createUser(t, 'pupil', pupilFields(institutionId, defaultChoice));

const get = (url: string, headers: Headers) => inject(t, { method: 'GET', url, headers });
const patch = (url: string, headers: Headers, payload: unknown) =>
  inject(t, { method: 'PATCH', url, headers, payload: payload as Record<string, unknown> });
const centerRow = async (chapter: string, institutionId: string) =>
  (
    await t.database.db
      .select()
      .from(centers)
      .where(and(eq(centers.chapterId, chapter), eq(centers.institutionId, institutionId)))
  )[0];
const registrationsAt = async (chapter: string, institutionId: string) =>
  t.database.db
    .select()
    .from(centerRegistrations)
    .where(and(eq(centerRegistrations.chapterId, chapter), eq(centerRegistrations.institutionId, institutionId)));

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  [{ id: A }, { id: B }, { id: NO }, { id: POLE }, { id: NEW }] = await db
    .insert(institutions)
    .values(
      ['Collège Blaise Pascal', 'Lycée Henri Poincaré', 'Collège Émilie du Châtelet', 'Lycée Pôle Sud', 'Collège Nouveau'].map(
        (name, i) => ({ name, latitude: 45 + i, longitude: 2 + i, confirmed: true }),
      ),
    )
    .returning();
  [{ id: chapterId }, { id: onlineChapterId }, { id: closedChapterId }] = await db
    .insert(chapters)
    .values([
      { title: 'Coupe papier', offline: true },
      { title: 'Coupe en ligne', offline: false },
      { title: 'Coupe réservée', offline: true },
    ])
    .returning();
  await db.insert(accessGroups).values([
    { chapterId, position: 0 },
    { chapterId: onlineChapterId, position: 0 },
    // Only boys in 2nde: our pupils (girls in 3ème) have no access.
    { chapterId: closedChapterId, position: 0, authorizedGenders: ['male'], authorizedGrades: ['2nde'] },
  ]);
  await db.insert(centers).values([
    { chapterId, institutionId: NO, opened: false },
    { chapterId, institutionId: POLE, opened: true, isPole: true, instructions: 'Salle des fêtes' },
  ]);
  teacherA = (await createUser(t, 'teacher', { institutionId: A, firstName: 'Prof', lastName: 'A' })).headers;
});
afterAll(async () => t.close());

describe('permissions of every centre route', () => {
  const routes = (chapter: string) => ({
    getCenter: { method: 'GET' as const, url: `/api/center/${chapter}` },
    patchCenter: { method: 'PATCH' as const, url: `/api/center/${chapter}`, payload: { opened: true } },
    users: { method: 'GET' as const, url: `/api/center/users/${chapter}` },
    overview: { method: 'GET' as const, url: `/api/center/overview/${chapter}` },
    options: { method: 'GET' as const, url: `/api/center/institutions/${chapter}` },
    userGet: { method: 'GET' as const, url: `/api/center/user/${chapter}` },
    userPatch: { method: 'PATCH' as const, url: `/api/center/user/${chapter}`, payload: { institution: POLE } },
  });
  type Key = keyof ReturnType<typeof routes>;
  // Expected status per role (the pupil and staff have a school, see `headersFor`).
  const expected: Record<Key, Record<RoleName, number>> = {
    getCenter: { anonymous: 401, pupil: 403, member: 403, teacher: 200, admin: 200 },
    patchCenter: { anonymous: 401, pupil: 403, member: 403, teacher: 200, admin: 200 },
    users: { anonymous: 401, pupil: 403, member: 403, teacher: 200, admin: 200 },
    overview: { anonymous: 401, pupil: 403, member: 403, teacher: 403, admin: 200 },
    options: { anonymous: 401, pupil: 200, member: 200, teacher: 200, admin: 200 },
    userGet: { anonymous: 401, pupil: 200, member: 200, teacher: 200, admin: 200 },
    userPatch: { anonymous: 401, pupil: 200, member: 403, teacher: 403, admin: 200 },
  };
  const headersFor = async (role: RoleName): Promise<Headers> => {
    if (role === 'anonymous') return {};
    if (role === 'pupil') return (await pupil(B)).headers;
    return (await createUser(t, role, { institutionId: B })).headers;
  };

  for (const key of Object.keys(expected) as Key[]) {
    for (const role of Object.keys(expected[key]) as RoleName[]) {
      it(`${key} as ${role} → ${expected[key][role]}`, async () => {
        const route = routes(chapterId)[key];
        const res = await inject(t, { ...route, headers: await headersFor(role) });
        expect(res.status, JSON.stringify(res.body)).toBe(expected[key][role]);
        if (res.status >= 400) expect(res.body.message).toMatch(/[a-zé]/);
      });
    }
  }

  it('a teacher who is also a member chooses a centre like a pupil', async () => {
    const both = await createUser(t, 'teacher', pupilFields(B));
    await t.database.db.insert(groupMembers).values({ groupId: MEMBERS_GROUP_ID, userId: both.id });
    const res = await patch(`/api/center/user/${chapterId}`, both.headers, { institution: POLE });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Centre d’examen enregistré');
  });

  it('a teacher only ever reaches their own institution’s centre', async () => {
    expect((await get(`/api/center/${chapterId}?institution=${B}`, teacherA)).status).toBe(403);
    expect((await get(`/api/center/users/${chapterId}?institution=${B}`, teacherA)).status).toBe(403);
    const before = await centerRow(chapterId, B);
    const res = await patch(`/api/center/${chapterId}`, teacherA, { institution: B, opened: false });
    expect(res.status).toBe(403);
    expect(await centerRow(chapterId, B)).toEqual(before);
    expect((await get(`/api/center/${chapterId}?institution=${A}`, teacherA)).status).toBe(200);
  });

  it('a teacher cannot mark a pole centre', async () => {
    const res = await patch(`/api/center/${chapterId}`, teacherA, { isPole: true });
    expect(res.status).toBe(403);
    expect((await centerRow(chapterId, A))?.isPole ?? false).toBe(false);
  });

  it('a teacher without a school is told to complete the profile', async () => {
    const { headers } = await createUser(t, 'teacher');
    const res = await get(`/api/center/${chapterId}`, headers);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/établissement/);
  });

  it('a pupil without access to the chapter gets 403 on the selection routes', async () => {
    const { headers } = await pupil(B);
    expect((await get(`/api/center/institutions/${closedChapterId}`, headers)).status).toBe(403);
    expect((await get(`/api/center/user/${closedChapterId}`, headers)).status).toBe(403);
    expect((await patch(`/api/center/user/${closedChapterId}`, headers, { institution: POLE })).status).toBe(403);
  });
});

describe('bad input gets 400 in French and changes nothing', () => {
  it('rejects garbage ids', async () => {
    for (const url of [
      '/api/center/nope',
      '/api/center/users/nope',
      '/api/center/institutions/nope',
      '/api/center/user/nope',
      `/api/center/${chapterId}?institution=nope`,
    ]) {
      const res = await get(url, (await createUser(t, 'admin')).headers);
      expect(res.status, url).toBe(400);
      expect(res.body.message).toMatch(/invalide/);
    }
  });

  it('rejects invalid places and answers', async () => {
    await patch(`/api/center/${chapterId}`, teacherA, { opened: true, nb_places: 4, instructions: 'Entrée B' });
    const before = await centerRow(chapterId, A);
    for (const payload of [
      { nb_places: -1 },
      { nb_places: 1.5 },
      { nb_places: '3' },
      { opened: 'peut-être' },
      { instructions: 42 },
      { institution: 'pas-un-id' },
    ]) {
      const res = await patch(`/api/center/${chapterId}`, teacherA, payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.message).toMatch(/^Données invalides/);
    }
    expect(await centerRow(chapterId, A)).toEqual(before);
  });

  it('rejects a registration to a garbage or unknown institution', async () => {
    const { headers, id } = await pupil(B);
    expect((await patch(`/api/center/user/${chapterId}`, headers, { institution: 'x' })).status).toBe(400);
    const res = await patch(`/api/center/user/${chapterId}`, headers, { institution: '00000000-0000-4000-8000-00000000dead' });
    expect(res.status).toBe(404);
    const mine = await t.database.db.select().from(centerRegistrations).where(eq(centerRegistrations.userId, id));
    expect(mine).toEqual([]);
  });

  it('refuses centres on an online chapter', async () => {
    const res = await get(`/api/center/${onlineChapterId}`, teacherA);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Ce chapitre n’est pas une épreuve papier.');
    expect((await patch(`/api/center/${onlineChapterId}`, teacherA, { opened: true })).status).toBe(400);
  });
});

describe('status of each centre and local/global visibility', () => {
  let chapter: string;
  let FULL: string;
  beforeAll(async () => {
    const db = t.database.db;
    [{ id: chapter }] = await db.insert(chapters).values({ title: 'Statuts', offline: true }).returning();
    await db.insert(accessGroups).values({ chapterId: chapter, position: 0 });
    [{ id: FULL }] = await db.insert(institutions).values({ name: 'Collège Complet', latitude: 44, longitude: 1 }).returning();
    await db.insert(centers).values([
      { chapterId: chapter, institutionId: A, opened: true, nbPlaces: 2, instructions: 'Salle 12' },
      { chapterId: chapter, institutionId: NO, opened: false, instructions: 'secret' },
      { chapterId: chapter, institutionId: POLE, opened: null, isPole: true, instructions: 'Gymnase' },
      { chapterId: chapter, institutionId: FULL, opened: true, nbPlaces: 1 },
      { chapterId: chapter, institutionId: NEW, opened: null, instructions: 'pas encore' },
    ]);
    // One outside pupil fills FULL; two pupils of FULL itself do not count against its places.
    const outsider = await pupil(B);
    await db.insert(centerRegistrations).values({ chapterId: chapter, userId: outsider.id, institutionId: FULL });
    for (let i = 0; i < 2; i++) {
      const own = await pupil(FULL);
      await db.insert(centerRegistrations).values({ chapterId: chapter, userId: own.id, institutionId: FULL });
    }
  });

  const statusMap = (body: Array<{ _id: string; status: string; extra: boolean; instructions: string; own: boolean }>) =>
    Object.fromEntries(body.map((o) => [o._id, o]));

  it('computes unknown / yes / center / no / full', async () => {
    const { headers } = await pupil(B, 'local');
    const res = await get(`/api/center/institutions/${chapter}`, headers);
    expect(res.status).toBe(200);
    const byId = statusMap(res.body);
    expect(byId[A].status).toBe('yes');
    expect(byId[NO].status).toBe('no');
    expect(byId[POLE].status).toBe('center');
    expect(byId[FULL].status).toBe('full');
    expect(byId[NEW].status).toBe('unknown');
    // The pupil's own school, which never answered, is listed as unknown.
    expect(byId[B]).toMatchObject({ status: 'unknown', own: true });
    // Instructions only once a centre is open (or a pole).
    expect(byId[A].instructions).toBe('Salle 12');
    expect(byId[POLE].instructions).toBe('Gymnase');
    expect(byId[NO].instructions).toBe('');
    expect(byId[NEW].instructions).toBe('');
  });

  it('a local pupil sees own school, unknown, open and full centres directly; refusing schools are extra', async () => {
    const { headers } = await pupil(B, 'local');
    const byId = statusMap((await get(`/api/center/institutions/${chapter}`, headers)).body);
    expect([A, POLE, FULL, NEW, B].map((id) => byId[id].extra)).toEqual([false, false, false, false, false]);
    expect(byId[NO].extra).toBe(true);
  });

  it('a global pupil sees only pole centres directly', async () => {
    const { headers } = await pupil(B, 'global');
    const byId = statusMap((await get(`/api/center/institutions/${chapter}`, headers)).body);
    expect(byId[POLE].extra).toBe(false);
    expect([A, NO, FULL, NEW, B].map((id) => byId[id].extra)).toEqual([true, true, true, true, true]);
  });

  it('an admin sees every centre directly', async () => {
    const res = await get(`/api/center/institutions/${chapter}`, await loginAs(t, 'admin'));
    expect(res.body.every((o: { extra: boolean }) => !o.extra)).toBe(true);
    expect(res.body.map((o: { _id: string }) => o._id)).toEqual(expect.arrayContaining([A, NO, POLE, FULL, NEW]));
  });

  it('the staff view gives the same status', async () => {
    const res = await get(`/api/center/${chapter}?institution=${FULL}`, await loginAs(t, 'admin'));
    expect(res.body).toMatchObject({ status: 'full', opened: true, nb_places: 1 });
    expect(res.body.members).toHaveLength(3);
  });
});

describe('registration rules', () => {
  let chapter: string;
  beforeAll(async () => {
    const db = t.database.db;
    [{ id: chapter }] = await db.insert(chapters).values({ title: 'Inscriptions', offline: true }).returning();
    await db.insert(accessGroups).values({ chapterId: chapter, position: 0 });
    await db.insert(centers).values([
      { chapterId: chapter, institutionId: NO, opened: false },
      { chapterId: chapter, institutionId: POLE, opened: true, isPole: true },
    ]);
  });

  it('a teacher opens the centre; own pupils always fit, outsiders only within the places', async () => {
    const res = await patch(`/api/center/${chapter}`, teacherA, { opened: true, instructions: 'Salle 3, 8 h', nb_places: 1 });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Modifications enregistrées');

    const ownPupils = [await pupil(A), await pupil(A)];
    for (const p of ownPupils) expect((await patch(`/api/center/user/${chapter}`, p.headers, { institution: A })).status).toBe(200);
    const first = await pupil(B);
    expect((await patch(`/api/center/user/${chapter}`, first.headers, { institution: A })).status).toBe(200);
    const second = await pupil(B);
    const refused = await patch(`/api/center/user/${chapter}`, second.headers, { institution: A });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Ce centre est complet.');
    // Re-choosing the same centre is idempotent, even when full.
    expect((await patch(`/api/center/user/${chapter}`, first.headers, { institution: A })).status).toBe(200);

    // A pupil changing centre frees the place.
    expect((await patch(`/api/center/user/${chapter}`, first.headers, { institution: POLE })).status).toBe(200);
    expect((await patch(`/api/center/user/${chapter}`, second.headers, { institution: A })).status).toBe(200);
    const mine = await get(`/api/center/user/${chapter}`, second.headers);
    expect(mine.body.registration.institution).toEqual({ _id: A, name: 'Collège Blaise Pascal' });
    expect(mine.body.center).toMatchObject({ _id: A, status: 'full', instructions: 'Salle 3, 8 h' });

    // The management panel lists them: two own pupils and one outsider.
    const center = await get(`/api/center/${chapter}`, teacherA);
    expect(center.body.members).toHaveLength(3);
    expect(center.body.members.filter((m: { institution: { _id: string } }) => m.institution._id === A)).toHaveLength(2);
    const users = await get(`/api/center/users/${chapter}`, teacherA);
    expect(users.body).toHaveLength(3);
    expect(Object.keys(users.body[0]).sort()).toEqual(['_id', 'firstName', 'grade', 'institution', 'lastName', 'present']);
  });

  it('nobody registers at a school that said no, not even its own pupils', async () => {
    for (const p of [await pupil(NO), await pupil(B)]) {
      const res = await patch(`/api/center/user/${chapter}`, p.headers, { institution: NO });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Cet établissement n’organise pas l’épreuve.');
    }
    expect(await registrationsAt(chapter, NO)).toEqual([]);
  });

  it('own pupils may register at their school before it answered; outsiders may not', async () => {
    const own = await pupil(NEW);
    expect((await patch(`/api/center/user/${chapter}`, own.headers, { institution: NEW })).status).toBe(200);
    const outsider = await pupil(B);
    const res = await patch(`/api/center/user/${chapter}`, outsider.headers, { institution: NEW });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/pas encore indiqué/);
  });

  it('an admin marks a pole centre, open to all without places', async () => {
    const admin = await loginAs(t, 'admin');
    const res = await patch(`/api/center/${chapter}`, admin, { institution: NEW, isPole: true });
    expect(res.status).toBe(200);
    expect(await centerRow(chapter, NEW)).toMatchObject({ isPole: true, opened: null });
    const outsider = await pupil(B);
    expect((await patch(`/api/center/user/${chapter}`, outsider.headers, { institution: NEW })).status).toBe(200);
    expect((await patch(`/api/center/${chapter}`, admin, { institution: NEW, isPole: false })).status).toBe(200);
    expect((await centerRow(chapter, NEW)).isPole).toBe(false);
  });

  it('an admin without a school must name the institution', async () => {
    const res = await get(`/api/center/${chapter}`, await loginAs(t, 'admin'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Indiquez l’établissement du centre.');
  });

  it('the registrations overview groups participants by centre and lists the unregistered', async () => {
    const lonely = await pupil(B);
    const res = await get(`/api/center/overview/${chapter}`, await loginAs(t, 'admin'));
    expect(res.status).toBe(200);
    const groups = Object.fromEntries(res.body.members.map((g: { institution: { _id: string } }) => [g.institution._id, g]));
    expect(groups[A]).toMatchObject({ validated: true, opened: true, status: 'full' });
    expect(groups[A].members).toHaveLength(3);
    expect(groups[POLE]).toMatchObject({ validated: true, isPole: true });
    expect(groups[NEW]).toMatchObject({ validated: false, opened: null });
    expect(groups[NO]).toBeUndefined();
    const unregistered = res.body.unregistered.map((u: { _id: string }) => u._id);
    expect(unregistered).toContain(lonely.id);
    // Staff are not candidates.
    expect(res.body.unregistered.every((u: { email: string }) => !u.email.startsWith('teacher-'))).toBe(true);
  });
});

describe('places are never exceeded under load', () => {
  it('50 concurrent registrations for 10 places: exactly 10 accepted, 40 told the centre is full', async () => {
    const db = t.database.db;
    const [{ id: chapter }] = await db.insert(chapters).values({ title: 'Affluence', offline: true }).returning();
    await db.insert(accessGroups).values({ chapterId: chapter, position: 0 });
    await db.insert(centers).values({ chapterId: chapter, institutionId: A, opened: true, nbPlaces: 10 });
    const pupils = await Promise.all(Array.from({ length: 50 }, () => pupil(B)));
    // Two own pupils register at the same time: they never take outside places.
    const own = await Promise.all([pupil(A), pupil(A)]);

    const results = await Promise.all([...pupils, ...own].map((p) => patch(`/api/center/user/${chapter}`, p.headers, { institution: A })));
    const outsideResults = results.slice(0, 50);
    expect(outsideResults.filter((r) => r.status === 200)).toHaveLength(10);
    const refused = outsideResults.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.message).toBe('Ce centre est complet.');
    }
    expect(results.slice(50).map((r) => r.status)).toEqual([200, 200]);

    // Nothing half-written: exactly the accepted pupils are registered.
    const rows = await registrationsAt(chapter, A);
    expect(rows).toHaveLength(12);
    const accepted = new Set(pupils.filter((_, i) => outsideResults[i].status === 200).map((p) => p.id));
    for (const p of own) accepted.add(p.id);
    expect(new Set(rows.map((r) => r.userId))).toEqual(accepted);
    const status = await get(`/api/center/${chapter}?institution=${A}`, await loginAs(t, 'admin'));
    expect(status.body.status).toBe('full');
  });
});

describe('demo seed', () => {
  it('seeds opened, pole and refusing centres with registrations, and can run twice', async () => {
    const { seedCentersDemo } = await import('../src/centers/demo.js');
    const db = t.database.db;
    const [{ id: chapter }] = await db.insert(chapters).values({ title: 'Démo', offline: true }).returning();
    await db.insert(accessGroups).values({ chapterId: chapter, position: 0 });
    const pupils = [await pupil(A), await pupil(B), await pupil(B)];
    const input = { chapterId: chapter, institutionIds: [A, B, NEW, POLE, NO], teacherId: 'unused', pupilIds: pupils.map((p) => p.id) };
    await seedCentersDemo(db, input);
    await seedCentersDemo(db, input);
    const byId = Object.fromEntries(
      (await get(`/api/center/institutions/${chapter}`, await loginAs(t, 'admin'))).body.map((o: { _id: string; status: string }) => [
        o._id,
        o.status,
      ]),
    );
    expect(byId).toMatchObject({ [A]: 'yes', [POLE]: 'center', [NO]: 'no', [NEW]: 'full' });
    expect((await t.database.db.select().from(centerRegistrations).where(eq(centerRegistrations.chapterId, chapter))).length).toBe(3);
  });
});
