import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups, chapters, groups } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, loginAs, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const ROLES: RoleName[] = ['anonymous', 'pupil', 'teacher', 'member', 'admin'];
/** Routes of the foundation and who may call them (every logged-in role here). */
const ROUTES = [
  { method: 'PUT', url: '/api/auth/me', payload: {}, allowed: ['pupil', 'teacher', 'member', 'admin'] },
  { method: 'GET', url: '/api/group', allowed: ['pupil', 'teacher', 'member', 'admin'] },
  { method: 'GET', url: '/api/chapter', allowed: ['pupil', 'teacher', 'member', 'admin'] },
] as const;

describe('guards', () => {
  for (const route of ROUTES) {
    for (const role of ROLES) {
      const allowed = (route.allowed as readonly string[]).includes(role);
      it(`${route.method} ${route.url} as ${role} → ${allowed ? 200 : 401}`, async () => {
        const headers = await loginAs(t, role);
        const res = await inject(t, {
          method: route.method,
          url: route.url,
          headers,
          payload: 'payload' in route ? route.payload : undefined,
        });
        expect(res.status).toBe(allowed ? 200 : 401);
        if (!allowed) expect(res.body.message).toBe('Vous devez vous connecter.');
      });
    }
  }

  it('lets anonymous callers reach only the auth routes, health and config', async () => {
    for (const url of ['/api/health', '/api/config']) expect((await inject(t, { method: 'GET', url })).status).toBe(200);
  });
});

describe('GET /group', () => {
  it('gives a user their own groups and an admin every group', async () => {
    await t.database.db.insert(groups).values({ name: 'Stage d’été' });
    const pupil = await createUser(t, 'pupil');
    const teacher = await createUser(t, 'teacher');
    const admin = await createUser(t, 'admin');
    const names = async (headers: Record<string, string>) =>
      (await inject(t, { method: 'GET', url: '/api/group', headers })).body.map((g: { name: string }) => g.name);
    expect(await names(pupil.headers)).toEqual([]);
    expect(await names(teacher.headers)).toEqual(['teachers']);
    expect((await names(admin.headers)).sort()).toEqual(['Stage d’été', 'members', 'teachers'].sort());
  });
});

describe('GET /chapter visibility', () => {
  it('follows the access groups for pupils, paper chapters for teachers, all for members and admins', async () => {
    const [online, paper, girls3e, noRule] = await t.database.db
      .insert(chapters)
      .values([
        { title: 'Tour 1', offline: false },
        { title: 'Épreuve papier', offline: true },
        { title: 'Réservé 3e filles', offline: false },
        { title: 'Sans accès', offline: false },
      ])
      .returning();
    await t.database.db.insert(accessGroups).values([
      { chapterId: online.id, position: 0, name: 'all' },
      { chapterId: paper.id, position: 0, name: 'all' },
      { chapterId: girls3e.id, position: 0, name: 'filles', authorizedGenders: ['female'], authorizedGrades: ['3eme'] },
    ]);
    const titles = async (headers: Record<string, string>) =>
      (await inject(t, { method: 'GET', url: '/api/chapter', headers })).body.map((c: { title: string }) => c.title).sort();

    const boy = await createUser(t, 'pupil', { gender: 'male', grade: '3eme' });
    const girl = await createUser(t, 'pupil', { gender: 'female', grade: '3eme' });
    const teacher = await createUser(t, 'teacher');
    const member = await createUser(t, 'member');
    expect(await titles(boy.headers)).toEqual(['Tour 1', 'Épreuve papier'].sort());
    expect(await titles(girl.headers)).toEqual(['Réservé 3e filles', 'Tour 1', 'Épreuve papier'].sort());
    expect(await titles(teacher.headers)).toEqual(['Tour 1', 'Épreuve papier'].sort());
    expect(await titles(member.headers)).toContain(noRule.title);
    const body = (await inject(t, { method: 'GET', url: '/api/chapter', headers: member.headers })).body;
    expect(Object.keys(body[0]).sort()).toEqual(['_id', 'analysis', 'offline', 'title']);
  });
});
