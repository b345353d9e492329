import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessGroups, authSessions, chapters, exercises } from '../src/db/schema.js';
import { saveMemos } from '../src/answers/save-memos.js';
import { buildTestApp, createUser, inject, lastLinkTo, PASSWORD, PUPIL_PROFILE, tokenOf, type TestApp } from './helpers.js';

/**
 * Decision 136: 15-minute access tokens naming a server-side session, a refresh token that gets new ones,
 * a logout that ends the session on the server, impersonations that die with their admin's password.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
afterEach(() => void vi.useRealTimers());

let ip = 0;
const nextIp = () => `192.0.2.${++ip}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const login = async (email: string, password = PASSWORD) => {
  const res = await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: nextIp() });
  expect(res.status).toBe(200);
  return res.body as { token: string; refreshToken: string };
};
const me = (token: string) => inject(t, { method: 'PUT', url: '/api/auth/me', headers: bearer(token), payload: {} });
const refresh = (refreshToken: string) => inject(t, { method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
const logout = (token: string, payload: object = {}) =>
  inject(t, { method: 'POST', url: '/api/auth/logout', headers: bearer(token), payload });
/** Sets a new password through the mailed reset link, as the user would. */
async function changePassword(email: string, password: string) {
  expect((await inject(t, { method: 'POST', url: '/api/auth/register', payload: { email }, remoteAddress: nextIp() })).status).toBe(200);
  const res = await inject(t, {
    method: 'POST',
    url: '/api/auth/confirm',
    payload: { token: tokenOf(await lastLinkTo(t, email)), password },
    remoteAddress: nextIp(),
  });
  expect(res.status).toBe(200);
}

describe('logout ends the session on the server', () => {
  it('the token copied before the logout is refused, and so is its refresh token', async () => {
    const user = await createUser(t, 'pupil');
    const session = await login(user.email);
    expect((await me(session.token)).status).toBe(200);
    const copied = session.token;
    const out = await logout(session.token);
    expect(out).toMatchObject({ status: 200, body: { message: 'Vous êtes déconnecté.' } });
    expect(await me(copied)).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    expect(await refresh(session.refreshToken)).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    // Logging out again with the dead token is refused too.
    expect((await logout(copied)).status).toBe(401);
  });

  it('ends only that session: the same user’s other device stays logged in', async () => {
    const user = await createUser(t, 'pupil');
    const school = await login(user.email);
    const home = await login(user.email);
    expect((await logout(school.token)).status).toBe(200);
    expect((await me(school.token)).status).toBe(401);
    expect((await me(home.token)).status).toBe(200);
    expect((await refresh(home.refreshToken)).status).toBe(200);
  });

  it('ends the sessions of the refresh tokens sent with it (the admin’s own, kept during an impersonation)', async () => {
    const admin = await createUser(t, 'admin');
    const own = await login(admin.email);
    const pupil = await createUser(t, 'pupil');
    const acting = (await inject(t, { method: 'POST', url: '/api/user/logto', headers: bearer(own.token), payload: { uid: pupil.id } }))
      .body;
    expect((await logout(acting.token, { refreshTokens: [own.refreshToken] })).status).toBe(200);
    expect((await me(acting.token)).status).toBe(401);
    expect((await me(own.token)).status).toBe(401);
    expect((await refresh(own.refreshToken)).status).toBe(401);
  });

  it('refuses a save from a logged-out session, even one the save path had memoised', async () => {
    const db = t.database.db;
    const [chapter] = await db.insert(chapters).values({ title: 'Sessions' }).returning();
    await db.insert(accessGroups).values({ chapterId: chapter.id, position: 0 });
    const [exercise] = await db
      .insert(exercises)
      .values({ chapterId: chapter.id, position: 0, title: 'Exercice 1', answerFormat: 'numeric' })
      .returning();
    const pupil = await createUser(t, 'pupil', PUPIL_PROFILE);
    const session = await login(pupil.email);
    expect(
      (await inject(t, { method: 'POST', url: `/api/chapter/start/${chapter.id}`, headers: bearer(session.token) })).status,
    ).toBeLessThan(300);
    const save = (answer: string) =>
      inject(t, { method: 'POST', url: '/api/answer', headers: bearer(session.token), payload: { exerciseId: exercise.id, answer } });
    expect((await save('1')).status).toBe(200);
    expect((await save('2')).status).toBe(200);
    // The second save's decision is memoised: the next one would send the guarded insert alone.
    const { sessionId } = (await t.app.deps.signer.verify(session.token))!;
    expect(saveMemos.get(`${pupil.id}|0||${sessionId}|${exercise.id}`)).toBeDefined();
    expect((await logout(session.token)).status).toBe(200);
    expect(await save('3')).toMatchObject({ status: 401, body: { code: 'session_expired' } });
  });
});

describe('15-minute access tokens, refreshed', () => {
  it('an access token expires after 15 minutes; the refresh token gets a new one of the same session', async () => {
    const user = await createUser(t, 'pupil');
    const session = await login(user.email);
    const { sessionId } = (await t.app.deps.signer.verify(session.token))!;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60_000);
    expect(await me(session.token)).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    const renewed = await refresh(session.refreshToken);
    expect(renewed.status).toBe(200);
    expect(renewed.body.refreshToken).toBe(session.refreshToken);
    expect((await me(renewed.body.token)).status).toBe(200);
    const claims = await t.app.deps.signer.verify(renewed.body.token);
    expect(claims).toMatchObject({ userId: user.id, sessionId });
    // The session itself moved its end a week on.
    const [row] = await t.database.db.select().from(authSessions).where(eq(authSessions.id, claims!.sessionId!));
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() - 16 * 60_000 + 6 * 24 * 3600_000);
    // A logout after the refresh ends both tokens.
    expect((await logout(renewed.body.token)).status).toBe(200);
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });

  it('a password change ends every session of the user', async () => {
    const user = await createUser(t, 'pupil');
    const session = await login(user.email);
    await changePassword(user.email, 'Changé#2026ok');
    expect((await me(session.token)).status).toBe(401);
    expect((await refresh(session.refreshToken)).status).toBe(401);
  });

  it('refuses an unknown or a malformed refresh token with the same 401', async () => {
    expect(await refresh('inconnu')).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    expect((await inject(t, { method: 'POST', url: '/api/auth/refresh', payload: {} })).status).toBe(400);
  });
});

describe('impersonation checks its admin on every request', () => {
  it('the admin’s password change ends the impersonation at once', async () => {
    const admin = await createUser(t, 'admin');
    const own = await login(admin.email);
    const pupil = await createUser(t, 'pupil', { firstName: 'Emmy' });
    const res = await inject(t, { method: 'POST', url: '/api/user/logto', headers: bearer(own.token), payload: { uid: pupil.id } });
    expect(res.status).toBe(200);
    expect(await me(res.body.token)).toMatchObject({ status: 200, body: { _id: pupil.id, firstName: 'Emmy' } });
    expect((await refresh(res.body.refreshToken)).status).toBe(200);
    await changePassword(admin.email, 'Changé#2026ok');
    expect(await me(res.body.token)).toMatchObject({ status: 401, body: { code: 'session_expired' } });
    expect((await refresh(res.body.refreshToken)).status).toBe(401);
  });

  it('a token naming an admin but no session is refused (it could not be ended)', async () => {
    const admin = await createUser(t, 'admin');
    const pupil = await createUser(t, 'pupil');
    const forged = await t.app.deps.signer.sign({ userId: pupil.id, tokenVersion: 0, actorId: admin.id });
    expect((await me(forged)).status).toBe(401);
  });
});

describe('ended sessions are purged', () => {
  it('deletes the expired ones and those revoked over a day ago, keeps the others', async () => {
    const { purgeEndedSessions } = await import('../src/auth/sessions.js');
    const db = t.database.db;
    const user = await createUser(t, 'pupil');
    const day = 86_400_000;
    const rows = await db
      .insert(authSessions)
      .values([
        { userId: user.id, tokenVersion: 0, refreshHash: `p-live-${user.id}`, expiresAt: new Date(Date.now() + day) },
        { userId: user.id, tokenVersion: 0, refreshHash: `p-expired-${user.id}`, expiresAt: new Date(Date.now() - 1000) },
        {
          userId: user.id,
          tokenVersion: 0,
          refreshHash: `p-old-${user.id}`,
          expiresAt: new Date(Date.now() + day),
          revokedAt: new Date(Date.now() - 2 * day),
        },
        {
          userId: user.id,
          tokenVersion: 0,
          refreshHash: `p-recent-${user.id}`,
          expiresAt: new Date(Date.now() + day),
          revokedAt: new Date(),
        },
      ])
      .returning({ refreshHash: authSessions.refreshHash });
    expect(rows).toHaveLength(4);
    expect(await purgeEndedSessions(db)).toBeGreaterThanOrEqual(2);
    const left = await db.select({ refreshHash: authSessions.refreshHash }).from(authSessions).where(eq(authSessions.userId, user.id));
    expect(left.map((r) => r.refreshHash.split('-')[1]).sort()).toEqual(['live', 'recent']);
  });
});
