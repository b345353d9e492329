import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, groupMembers, groups, institutions, MEMBERS_GROUP_ID, TEACHERS_GROUP_ID } from '../src/db/schema.js';
import { seedGroupsDemo } from '../src/groups/demo.js';
import { buildTestApp, createUser, inject, loginAs, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createUser>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await createUser(t, 'admin');
});
afterAll(async () => t.close());

const ROLES: RoleName[] = ['anonymous', 'pupil', 'teacher', 'member', 'admin'];

async function newGroup(name = `Groupe ${Math.random().toString(36).slice(2, 8)}`) {
  const [row] = await t.database.db.insert(groups).values({ name }).returning();
  return row;
}
async function memberIds(groupId: string) {
  const rows = await t.database.db.select().from(groupMembers).where(eq(groupMembers.groupId, groupId));
  return rows.map((r) => r.userId).sort();
}
async function groupNames() {
  return (await t.database.db.select({ name: groups.name }).from(groups)).map((g) => g.name).sort();
}

describe('guards: group management is for admins only', () => {
  const routes = [
    { method: 'GET', url: (id: string) => `/api/group/${id}`, payload: undefined },
    { method: 'POST', url: () => '/api/group', payload: () => ({ name: `Créé ${Math.random()}` }) },
    { method: 'PATCH', url: (id: string) => `/api/group/${id}`, payload: () => ({ name: `Renommé ${Math.random()}` }) },
    { method: 'PATCH', url: (id: string) => `/api/group/${id}`, payload: () => ({ members: [] }) },
    { method: 'DELETE', url: (id: string) => `/api/group/${id}`, payload: undefined },
  ] as const;
  for (const route of routes) {
    for (const role of ROLES) {
      const expected = role === 'anonymous' ? 401 : role === 'admin' ? 200 : 403;
      it(`${route.method} ${route.url(':id')} ${route.payload ? JSON.stringify(Object.keys(route.payload())) : ''} as ${role} → ${expected}`, async () => {
        const group = await newGroup();
        const pupil = await createUser(t, 'pupil');
        await t.database.db.insert(groupMembers).values({ groupId: group.id, userId: pupil.id });
        const before = { names: await groupNames(), members: await memberIds(group.id) };
        const headers = await loginAs(t, role);
        const res = await inject(t, { method: route.method, url: route.url(group.id), headers, payload: route.payload?.() });
        expect(res.status).toBe(expected);
        if (expected !== 200) {
          expect(res.body.message).toBe(expected === 401 ? 'Vous devez vous connecter.' : 'Vous n’avez pas accès à cette ressource.');
          // A refused call changes nothing, even when the caller belongs to the group.
          expect({ names: await groupNames(), members: await memberIds(group.id) }).toEqual(before);
        }
      });
    }
  }

  it('refuses a member of the group itself (belonging is not managing)', async () => {
    const group = await newGroup();
    const pupil = await createUser(t, 'pupil');
    await t.database.db.insert(groupMembers).values({ groupId: group.id, userId: pupil.id });
    expect((await inject(t, { method: 'GET', url: `/api/group/${group.id}`, headers: pupil.headers })).status).toBe(403);
  });
});

describe('bad input gets 400/404 in French and changes nothing', () => {
  it('refuses ids that are not UUIDs', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await inject(t, {
        method,
        url: '/api/group/abc',
        headers: admin.headers,
        payload: method === 'PATCH' ? { name: 'x' } : undefined,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Données invalides \(id\)\s: Identifiant de groupe invalide\./);
    }
  });

  it('answers 404 for a group that does not exist', async () => {
    const url = '/api/group/00000000-0000-4000-8000-0000000000ff';
    for (const [method, payload] of [['GET'], ['PATCH', { name: 'x' }], ['PATCH', { members: [] }], ['DELETE']] as const) {
      const res = await inject(t, { method, url, headers: admin.headers, payload });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Groupe introuvable.');
    }
  });

  it('refuses a blank, missing or too long name, and a body with both or neither field', async () => {
    const before = await groupNames();
    const group = await newGroup();
    const cases = [
      ['POST', '/api/group', { name: '   ' }, 'Le nom du groupe ne peut pas être vide.'],
      ['POST', '/api/group', {}, 'Le nom du groupe est requis.'],
      ['POST', '/api/group', { name: 'x'.repeat(101) }, 'Nom de groupe trop long (100 caractères au plus).'],
      ['PATCH', `/api/group/${group.id}`, {}, 'Indiquez soit un nom, soit la liste des membres.'],
      ['PATCH', `/api/group/${group.id}`, { name: 'A', members: [] }, 'Indiquez soit un nom, soit la liste des membres.'],
      ['PATCH', `/api/group/${group.id}`, { members: 'a@x.fr' }, 'La liste des membres doit être une liste d’adresses e-mail.'],
    ] as const;
    for (const [method, url, payload, message] of cases) {
      const res = await inject(t, { method, url, headers: admin.headers, payload });
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect(await groupNames()).toEqual([...before, group.name].sort());
  });
});

describe('POST, PATCH name, DELETE', () => {
  it('creates a group that the admin then lists, and audits it', async () => {
    const res = await inject(t, { method: 'POST', url: '/api/group', headers: admin.headers, payload: { name: '  Stage de printemps ' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _id: expect.any(String), name: 'Stage de printemps' });
    const list = await inject(t, { method: 'GET', url: '/api/group', headers: admin.headers });
    expect(list.body.map((g: { name: string }) => g.name)).toContain('Stage de printemps');
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'group.create'), eq(auditLog.targetId, res.body._id)));
    expect(entry.actorId).toBe(admin.id);
  });

  it('refuses the reserved names and a name already taken (any case)', async () => {
    await newGroup('Olympiades 2026');
    for (const name of ['teachers', 'Members', 'olympiades 2026']) {
      const res = await inject(t, { method: 'POST', url: '/api/group', headers: admin.headers, payload: { name } });
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/réservé|s’appelle déjà/);
    }
    expect((await groupNames()).filter((n) => n.toLowerCase() === 'olympiades 2026')).toHaveLength(1);
  });

  it('renames a group and keeps the name when unchanged', async () => {
    const group = await newGroup('Ancien nom');
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/group/${group.id}`,
      headers: admin.headers,
      payload: { name: 'Nouveau nom' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Modifications enregistrées');
    expect((await inject(t, { method: 'GET', url: `/api/group/${group.id}`, headers: admin.headers })).body.name).toBe('Nouveau nom');
    const same = await inject(t, {
      method: 'PATCH',
      url: `/api/group/${group.id}`,
      headers: admin.headers,
      payload: { name: 'Nouveau nom' },
    });
    expect(same.status).toBe(200);
  });

  it('never renames or deletes teachers and members', async () => {
    for (const [id, name] of [
      [TEACHERS_GROUP_ID, 'teachers'],
      [MEMBERS_GROUP_ID, 'members'],
    ]) {
      const rename = await inject(t, { method: 'PATCH', url: `/api/group/${id}`, headers: admin.headers, payload: { name: 'Profs' } });
      expect(rename.status).toBe(403);
      expect(rename.body.message).toBe(`Le groupe « ${name} » ne peut pas être renommé.`);
      const del = await inject(t, { method: 'DELETE', url: `/api/group/${id}`, headers: admin.headers });
      expect(del.status).toBe(403);
      expect(del.body.message).toBe(`Le groupe « ${name} » ne peut pas être supprimé.`);
      const [row] = await t.database.db.select().from(groups).where(eq(groups.id, id));
      expect(row.name).toBe(name);
    }
    const detail = await inject(t, { method: 'GET', url: `/api/group/${TEACHERS_GROUP_ID}`, headers: admin.headers });
    expect(detail.body.system).toBe(true);
  });

  it('deletes a group and its memberships, not its users', async () => {
    const group = await newGroup();
    const pupil = await createUser(t, 'pupil');
    await t.database.db.insert(groupMembers).values({ groupId: group.id, userId: pupil.id });
    const res = await inject(t, { method: 'DELETE', url: `/api/group/${group.id}`, headers: admin.headers });
    expect(res.status).toBe(200);
    expect(await memberIds(group.id)).toEqual([]);
    expect((await inject(t, { method: 'PUT', url: '/api/auth/me', headers: pupil.headers, payload: {} })).status).toBe(200);
    expect((await inject(t, { method: 'GET', url: `/api/group/${group.id}`, headers: admin.headers })).status).toBe(404);
  });
});

describe('GET /group/{id}', () => {
  it('gives the name and the members with their institution, by last name, from an allow-list', async () => {
    const [school] = await t.database.db.insert(institutions).values({ name: 'Lycée Fermat', email: 'ce@fermat.fr' }).returning();
    const group = await newGroup();
    const zoe = await createUser(t, 'pupil', {
      firstName: 'Zoé',
      lastName: 'Abel',
      gender: 'female',
      birthDate: '2010-03-04',
      institutionId: school.id,
    });
    const adam = await createUser(t, 'pupil', { firstName: 'Adam', lastName: 'Zola' });
    await t.database.db.insert(groupMembers).values([
      { groupId: group.id, userId: adam.id },
      { groupId: group.id, userId: zoe.id },
    ]);
    const res = await inject(t, { method: 'GET', url: `/api/group/${group.id}`, headers: admin.headers });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(group.name);
    expect(res.body.system).toBe(false);
    expect(res.body.members.map((m: { lastName: string }) => m.lastName)).toEqual(['Abel', 'Zola']);
    expect(res.body.members[0]).toEqual({
      _id: zoe.id,
      email: zoe.email,
      emailStudent: null,
      emailParent: null,
      emailOtherParent: null,
      firstName: 'Zoé',
      lastName: 'Abel',
      birthDate: '2010-03-04',
      gender: 'female',
      grade: null,
      defaultChoice: null,
      emailNotifications: false,
      institution: { _id: school.id, name: 'Lycée Fermat', email: 'ce@fermat.fr' },
      isAdmin: false,
      extraTimePercent: 0,
    });
    expect(res.body.members[1].institution).toBeNull();
  });
});

describe('PATCH /group/{id} with the full member list', () => {
  it('adds and removes to match the list, case-insensitively, and audits who changed what', async () => {
    const group = await newGroup();
    const [a, b, c] = await Promise.all([createUser(t, 'pupil'), createUser(t, 'pupil'), createUser(t, 'pupil')]);
    const set = (members: string[]) =>
      inject(t, { method: 'PATCH', url: `/api/group/${group.id}`, headers: admin.headers, payload: { members } });

    let res = await set([a.email.toUpperCase(), ` ${b.email} `, b.email]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Membres enregistrés : 2 ajouts, 0 retrait.', added: 2, removed: 0 });
    expect(await memberIds(group.id)).toEqual([a.id, b.id].sort());

    res = await set([b.email, c.email]);
    expect(res.body).toMatchObject({ message: 'Membres enregistrés : 1 ajout, 1 retrait.', added: 1, removed: 1 });
    expect(await memberIds(group.id)).toEqual([b.id, c.id].sort());

    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'group.members'), eq(auditLog.targetId, group.id)));
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({ actorId: admin.id, details: { added: [c.id], removed: [a.id] } });

    res = await set([]);
    expect(res.body).toMatchObject({ added: 0, removed: 2 });
    expect(await memberIds(group.id)).toEqual([]);
  });

  it('refuses the whole list when an address is unknown, naming every unknown address', async () => {
    const group = await newGroup();
    const a = await createUser(t, 'pupil');
    const b = await createUser(t, 'pupil');
    await t.database.db.insert(groupMembers).values({ groupId: group.id, userId: a.id });
    const res = await inject(t, {
      method: 'PATCH',
      url: `/api/group/${group.id}`,
      headers: admin.headers,
      payload: { members: [b.email, 'Inconnu@Exemple.fr', 'pas-une-adresse'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.unknown).toEqual(['inconnu@exemple.fr', 'pas-une-adresse']);
    expect(res.body.message).toBe(
      '2 adresses ne correspondent à aucun compte : inconnu@exemple.fr, pas-une-adresse. Aucune modification enregistrée.',
    );
    expect(await memberIds(group.id)).toEqual([a.id]);
  });

  it('grants the teacher role through the teachers group, and takes it back', async () => {
    const pupil = await createUser(t, 'pupil');
    const me = () => inject(t, { method: 'PUT', url: '/api/auth/me', headers: pupil.headers, payload: {} });
    expect((await me()).body.isTeacher).toBe(false);
    const current = (await inject(t, { method: 'GET', url: `/api/group/${TEACHERS_GROUP_ID}`, headers: admin.headers })).body.members.map(
      (m: { email: string }) => m.email,
    );
    const url = `/api/group/${TEACHERS_GROUP_ID}`;
    expect(
      (await inject(t, { method: 'PATCH', url, headers: admin.headers, payload: { members: [...current, pupil.email] } })).status,
    ).toBe(200);
    expect((await me()).body.isTeacher).toBe(true);
    expect((await inject(t, { method: 'PATCH', url, headers: admin.headers, payload: { members: current } })).status).toBe(200);
    expect((await me()).body.isTeacher).toBe(false);
  });
});

describe('seedGroupsDemo', () => {
  it('creates the demo group with the given users, twice without error', async () => {
    const users = await Promise.all([createUser(t, 'pupil'), createUser(t, 'pupil')]);
    const id = await seedGroupsDemo(
      t.database.db,
      users.map((u) => u.id),
    );
    expect(await memberIds(id)).toEqual(users.map((u) => u.id).sort());
    expect(
      await seedGroupsDemo(
        t.database.db,
        users.map((u) => u.id),
      ),
    ).toBe(id);
  });
});
