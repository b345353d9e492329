import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, authSessions, groupMembers, TEACHERS_GROUP_ID, users } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, loginAs, type RoleName, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const ROLES: RoleName[] = ['anonymous', 'pupil', 'teacher', 'member', 'admin'];
const logto = (headers: Record<string, string>, uid: unknown) =>
  inject(t, { method: 'POST', url: '/api/user/logto', headers, payload: { uid } });
const impersonations = async (targetId: string) =>
  (await t.database.db.select().from(auditLog).where(eq(auditLog.targetId, targetId))).filter((e) => e.action === 'user.impersonate');

describe('POST /user/logto', () => {
  for (const role of ROLES) {
    const expected = role === 'anonymous' ? 401 : role === 'admin' ? 200 : 403;
    it(`as ${role} onto a pupil → ${expected}`, async () => {
      const target = await createUser(t, 'pupil');
      const res = await logto(await loginAs(t, role), target.id);
      expect(res.status).toBe(expected);
      if (expected !== 200) {
        expect(res.body.token).toBeUndefined();
        expect(await impersonations(target.id)).toEqual([]);
      }
    });
  }

  it('gives a token that acts as the target and writes who, whom and when to the audit log', async () => {
    const admin = await createUser(t, 'admin');
    const target = await createUser(t, 'teacher', { firstName: 'Clara' });
    const before = Date.now();
    const res = await logto(admin.headers, target.id);
    expect(res.status).toBe(200);
    const me = await inject(t, { method: 'PUT', url: '/api/auth/me', headers: { authorization: `Bearer ${res.body.token}` }, payload: {} });
    expect(me.body).toMatchObject({ _id: target.id, firstName: 'Clara', isAdmin: false, isTeacher: true });
    const [entry] = await impersonations(target.id);
    expect(entry).toMatchObject({ actorId: admin.id, targetId: target.id, details: { email: target.email } });
    expect(entry.at.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    // The token carries the admin behind it.
    expect(await t.app.deps.signer.verify(res.body.token)).toMatchObject({ userId: target.id, actorId: admin.id });
  });

  it('never targets an admin, the caller included', async () => {
    const admin = await createUser(t, 'admin');
    const other = await createUser(t, 'admin');
    for (const uid of [other.id, admin.id]) {
      const res = await logto(admin.headers, uid);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Impossible de simuler un administrateur.');
      expect(await impersonations(uid)).toEqual([]);
    }
  });

  it('does not let an impersonated session impersonate again', async () => {
    const admin = await createUser(t, 'admin');
    const member = await createUser(t, 'member');
    const pupil = await createUser(t, 'pupil');
    const { token } = (await logto(admin.headers, member.id)).body;
    expect((await logto({ authorization: `Bearer ${token}` }, pupil.id)).status).toBe(403);
  });

  it('refuses a bad or unknown uid in French', async () => {
    const admin = await createUser(t, 'admin');
    for (const uid of ['abc', undefined, 12]) {
      const res = await logto(admin.headers, uid);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Données invalides \(uid\)/);
    }
    const res = await logto(admin.headers, '00000000-0000-4000-8000-0000000000ff');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Utilisateur introuvable.');
  });

  it('stops working when the target changes password (token version)', async () => {
    const admin = await createUser(t, 'admin');
    const target = await createUser(t, 'pupil');
    const { token } = (await logto(admin.headers, target.id)).body;
    await t.database.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, target.id));
    expect(
      (await inject(t, { method: 'PUT', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` }, payload: {} })).status,
    ).toBe(401);
  });
});

describe('GET /user/{uid}', () => {
  for (const role of ROLES) {
    // Correctors read no other account (decision 128): under anonymous correction it would name a copy.
    const expected = role === 'anonymous' ? 401 : role === 'admin' ? 200 : 403;
    it(`as ${role} on another user → ${expected}`, async () => {
      const target = await createUser(t, 'pupil');
      const res = await inject(t, { method: 'GET', url: `/api/user/${target.id}`, headers: await loginAs(t, role) });
      expect(res.status).toBe(expected);
      if (expected === 200) expect(res.body._id).toBe(target.id);
      else expect(res.body.email).toBeUndefined();
    });
  }

  it('lets every user read themself', async () => {
    for (const role of ['pupil', 'teacher', 'member', 'admin'] as const) {
      const me = await createUser(t, role);
      const res = await inject(t, { method: 'GET', url: `/api/user/${me.id}`, headers: me.headers });
      expect(res.status).toBe(200);
      expect(res.body.email).toBe(me.email);
    }
  });

  it('presents the target with its own roles, from the allow-list', async () => {
    const admin = await createUser(t, 'admin');
    const target = await createUser(t, 'pupil');
    await t.database.db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: target.id });
    const res = await inject(t, { method: 'GET', url: `/api/user/${target.id}`, headers: admin.headers });
    expect(res.body).toMatchObject({ isAdmin: false, isTeacher: true, isMember: false });
    expect(Object.keys(res.body).sort()).toEqual(
      [
        '_id',
        'birthDate',
        'defaultChoice',
        'email',
        'emailNotifications',
        'emailOtherParent',
        'emailParent',
        'emailStudent',
        'extraTimePercent',
        'firstName',
        'gender',
        'grade',
        'institution',
        'isAdmin',
        'isMember',
        'isTeacher',
        'lastName',
        'pendingEmails',
      ].sort(),
    );
  });

  it('answers 400 for a bad id and 404 for an unknown one', async () => {
    const admin = await createUser(t, 'admin');
    const bad = await inject(t, { method: 'GET', url: '/api/user/abc', headers: admin.headers });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Données invalides \(uid\)\s: Identifiant d’utilisateur invalide\./);
    const missing = await inject(t, { method: 'GET', url: '/api/user/00000000-0000-4000-8000-0000000000ff', headers: admin.headers });
    expect(missing.status).toBe(404);
  });
});

describe('impersonation tokens', () => {
  it('live 15 minutes, in a session of 2 hours, and die when the admin loses the admin flag', async () => {
    const t = await buildTestApp();
    try {
      const admin = await createUser(t, 'admin');
      const pupil = await createUser(t, 'pupil');
      const res = await inject(t, { method: 'POST', url: '/api/user/logto', payload: { uid: pupil.id }, headers: admin.headers });
      expect(res.status).toBe(200);
      const { exp, iat, sid } = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
      // Decision 136: a 15-minute token of a session that its refresh token cannot stretch past 2 hours.
      expect(exp - iat).toBe(15 * 60);
      const [session] = await t.database.db.select().from(authSessions).where(eq(authSessions.id, sid));
      expect(session).toMatchObject({ userId: pupil.id, actorId: admin.id });
      expect(Math.abs(session.expiresAt.getTime() - session.createdAt.getTime() - 2 * 3600_000)).toBeLessThan(5_000);
      const asPupil = { authorization: `Bearer ${res.body.token}` };
      expect((await inject(t, { method: 'PUT', url: '/api/auth/me', payload: {}, headers: asPupil })).status).toBe(200);
      await t.database.db.update(users).set({ isAdmin: false }).where(eq(users.id, admin.id));
      expect((await inject(t, { method: 'PUT', url: '/api/auth/me', payload: {}, headers: asPupil })).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
