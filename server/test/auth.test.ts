import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, users } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, lastLinkTo, PASSWORD, tokenOf, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const register = (email: string) => inject(t, { method: 'POST', url: '/api/auth/register', payload: { email } });
const confirm = (token: string, password: string) => inject(t, { method: 'POST', url: '/api/auth/confirm', payload: { token, password } });
const login = (email: string, password: string, ip = '10.0.0.1') =>
  inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
const me = (headers: Record<string, string>, payload: object = {}) => inject(t, { method: 'PUT', url: '/api/auth/me', payload, headers });

describe('sign-up, confirmation and login', () => {
  it('signs up, mails a link, sets a password through it and logs in', async () => {
    const res = await register('  Nouvelle.Eleve@Exemple.fr ');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/courriel/);
    const link = await lastLinkTo(t, 'nouvelle.eleve@exemple.fr');
    expect(link.startsWith('http://olympe.test/confirm?token=')).toBe(true);

    expect((await confirm(tokenOf(link), 'Bonjour#2026')).status).toBe(200);
    const ok = await login('NOUVELLE.eleve@exemple.fr', 'Bonjour#2026');
    expect(ok.status).toBe(200);
    const profile = await me({ authorization: `Bearer ${ok.body.token}` });
    expect(profile.status).toBe(200);
    expect(profile.body.email).toBe('nouvelle.eleve@exemple.fr');
    expect(profile.body).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(profile.body)).not.toMatch(/argon2/);
  });

  it('answers the same for a known e-mail (no enumeration) and mails a reset link instead', async () => {
    const known = await createUser(t, 'pupil');
    const a = await register(known.email);
    const b = await register('inconnu-total@exemple.fr');
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    const link = await lastLinkTo(t, known.email);
    expect(link).toContain('/confirm?token=');
  });

  it('limits sign-up to one mail per minute per address, in French', async () => {
    expect((await register('presse@exemple.fr')).status).toBe(200);
    const again = await register('presse@exemple.fr');
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/moins d’une minute/);
  });

  it('uses a link once only', async () => {
    await register('une-fois@exemple.fr');
    const token = tokenOf(await lastLinkTo(t, 'une-fois@exemple.fr'));
    expect((await confirm(token, 'Premier#2026')).status).toBe(200);
    const second = await confirm(token, 'Second#20266');
    expect(second.status).toBe(400);
    expect(second.body.message).toMatch(/n’est plus valide/);
    expect((await login('une-fois@exemple.fr', 'Second#20266')).status).toBe(401);
  });

  it('refuses an expired link', async () => {
    await register('expire@exemple.fr');
    const token = tokenOf(await lastLinkTo(t, 'expire@exemple.fr'));
    const [user] = await t.database.db.select().from(users).where(eq(users.email, 'expire@exemple.fr'));
    await t.database.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.userId, user.id));
    expect((await confirm(token, 'Expire#20266')).status).toBe(400);
  });

  it('re-checks the five password rules and keeps the link usable after a refusal', async () => {
    await register('regles@exemple.fr');
    const token = tokenOf(await lastLinkTo(t, 'regles@exemple.fr'));
    for (const weak of ['Court#1', 'minuscule#2026', 'MAJUSCULE#2026', 'SansChiffre#', 'SansSpecial2026']) {
      const res = await confirm(token, weak);
      expect(res.status, weak).toBe(400);
      expect(res.body.message).toBe('Le mot de passe ne respecte pas toutes les contraintes.');
    }
    expect((await confirm(token, 'Valide#2026')).status).toBe(200);
  });

  it('says "Identifiants invalides." for a wrong password and for an unknown e-mail', async () => {
    const user = await createUser(t, 'pupil');
    const wrong = await login(user.email, 'Mauvais#2026');
    const unknown = await login('personne@exemple.fr', PASSWORD);
    expect(wrong).toMatchObject({ status: 401, body: { message: 'Identifiants invalides.' } });
    expect(unknown).toMatchObject({ status: 401, body: { message: 'Identifiants invalides.' } });
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it('never locks a pupil out after a classmate’s wrong passwords: a few seconds’ wait, then in, from any address', async () => {
    const { LOGIN_SLOWDOWN, loginDelayMs } = await import('../src/auth/service.js');
    // The real curve: free tries, then doubling waits, never more than a few seconds.
    expect([0, 4, 5, 6, 7, 9, 12, 100].map(loginDelayMs)).toEqual([0, 0, 250, 500, 1000, 4000, 4000, 4000]);
    const saved = { ...LOGIN_SLOWDOWN };
    // The same curve, shorter, so that the test does not wait seconds.
    Object.assign(LOGIN_SLOWDOWN, { freeFailures: 3, baseMs: 40, capMs: 160 });
    try {
      const user = await createUser(t, 'pupil');
      const school = '10.9.9.9';
      const timed = async (ip: string, password: string) => {
        const started = performance.now();
        const res = await login(user.email, password, ip);
        return { status: res.status, ms: performance.now() - started };
      };
      // A classmate on the school's network: 15 wrong passwords, far past the 10 that used to lock the account.
      for (let i = 0; i < 15; i++) expect((await timed(school, 'Mauvais#2026')).status).toBe(401);
      const owner = await timed(school, PASSWORD);
      expect(owner.status).toBe(200);
      expect(owner.ms).toBeGreaterThanOrEqual(150);
      expect(owner.ms).toBeLessThan(2000);
      // The owner's success clears the account's failures: the next login waits for nothing.
      expect((await timed(school, PASSWORD)).ms).toBeLessThan(150);
      // From home, after more errors at school: slowed down the same, and in.
      for (let i = 0; i < 5; i++) await timed(school, 'Mauvais#2026');
      const home = await timed('192.0.2.44', PASSWORD);
      expect(home.status).toBe(200);
      expect(home.ms).toBeGreaterThanOrEqual(150);
      // Another pupil behind the same school address is not affected.
      const classmate = await createUser(t, 'pupil');
      expect((await login(classmate.email, PASSWORD, school)).status).toBe(200);
    } finally {
      Object.assign(LOGIN_SLOWDOWN, saved);
    }
  });
});

describe('tokens', () => {
  it('refuses tampered, expired and foreign-key tokens with 401', async () => {
    const user = await createUser(t, 'pupil');
    const [h, p, s] = user.token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: user.id, tv: 0, isAdmin: true })).toString('base64url')}.${s}`;
    const expired = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const foreign = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-xx'));
    expect(p).toBeTruthy();
    for (const token of [tampered, expired, foreign, 'garbage']) {
      const res = await me({ authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/Reconnectez-vous/);
    }
    expect((await me(user.headers)).status).toBe(200);
  });

  it('refuses with 401 a well-signed token whose subject is not a user id, or that never expires', async () => {
    const user = await createUser(t, 'pupil');
    const key = new TextEncoder().encode(t.config.jwtSecret);
    const notUuid = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject('admin').setExpirationTime('1h').sign(key);
    const badActor = await new SignJWT({ tv: 0, act: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setExpirationTime('1h')
      .sign(key);
    const forever = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(user.id).setIssuedAt().sign(key);
    for (const token of [notUuid, badActor, forever]) {
      for (const url of ['/api/chapter', '/api/auth/me']) {
        const res = await inject(t, {
          method: url === '/api/auth/me' ? 'PUT' : 'GET',
          url,
          payload: url === '/api/auth/me' ? {} : undefined,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status, `${url} ${token.slice(-8)}`).toBe(401);
        expect(res.body.message).toMatch(/Reconnectez-vous/);
      }
      const save = await inject(t, {
        method: 'POST',
        url: '/api/answer',
        headers: { authorization: `Bearer ${token}` },
        payload: { exerciseId: user.id, answer: '1', seq: 1 },
      });
      expect(save.status).toBe(401);
    }
  });

  it('revokes older tokens when the password changes', async () => {
    const user = await createUser(t, 'pupil');
    expect((await me(user.headers)).status).toBe(200);
    await register(user.email);
    await confirm(tokenOf(await lastLinkTo(t, user.email)), 'Nouveau#2026');
    expect((await me(user.headers)).status).toBe(401);
    const fresh = await login(user.email, 'Nouveau#2026');
    expect((await me({ authorization: `Bearer ${fresh.body.token}` })).status).toBe(200);
  });
});

describe('PUT /auth/me', () => {
  it('updates profile fields and never the role flags', async () => {
    const user = await createUser(t, 'pupil');
    const res = await me(user.headers, {
      firstName: 'Élodie',
      lastName: 'Martin',
      gender: 'female',
      grade: '3eme',
      birthDate: '2011-04-02',
      emailParent: 'Parent@Exemple.fr',
      defaultChoice: 'local',
      emailNotifications: true,
      isAdmin: true,
      isMember: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Élodie',
      grade: '3eme',
      emailParent: 'parent@exemple.fr',
      isAdmin: false,
      isMember: false,
    });
  });

  it('refuses bad values with a French message and saves nothing', async () => {
    const user = await createUser(t, 'pupil', { firstName: 'Avant' });
    for (const bad of [
      { firstName: 'Après', gender: 'robot' },
      { firstName: 'Après', grade: '6eme' },
      { firstName: 'Après', birthDate: '2026-02-30' },
      { firstName: 'Après', birthDate: '2999-01-01' },
      { firstName: 'Après', emailParent: 'pas-un-email' },
      { firstName: 'Après', emailStudent: 'eleve@' },
      { firstName: 'Après', emailOtherParent: 'autre parent@exemple.fr' },
      { firstName: 'Après', defaultChoice: 'both' },
      { firstName: 'Après', emailNotifications: 'oui' },
      { firstName: 'Après', birthDate: '1899-12-31' },
      { firstName: 'Après', birthDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
      { firstName: 'Après', institution: '00000000-0000-4000-8000-0000000000ff' },
      { firstName: 'Après', institution: '../../etc' },
      { firstName: 12 },
    ]) {
      const res = await me(user.headers, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(/[éèàêç]|invalide|existe/i);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await me(user.headers)).body.firstName).toBe('Avant');
  });

  it('accepts the home-schooling institution', async () => {
    const user = await createUser(t, 'pupil');
    const res = await me(user.headers, { institution: '00000000-0000-4000-8000-000000000010' });
    expect(res.body.institution).toMatchObject({ name: 'Instruction en famille' });
  });
});

describe('bad input', () => {
  it('answers malformed JSON with 400 in French', async () => {
    const res = await inject(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email": "a@b.fr",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({ status: 400, body: { message: 'Le corps de la requête n’est pas un JSON valide.' } });
  });

  it('answers an over-size body with 413 in French', async () => {
    const res = await inject(t, {
      method: 'POST',
      url: '/api/auth/register',
      payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({ status: 413, body: { message: 'La requête est trop volumineuse.' } });
  });

  it('answers wrong types and unknown routes in French JSON', async () => {
    const wrong = await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: ['x'], password: 3 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^Données invalides/);
    const missing = await inject(t, { method: 'GET', url: '/api/nulle-part' });
    expect(missing).toMatchObject({ status: 404, body: { message: 'Adresse inconnue.' } });
  });

  it('reports health once the database answers', async () => {
    expect(await inject(t, { method: 'GET', url: '/api/health' })).toMatchObject({ status: 200, body: { ok: true } });
  });
});

describe('password hashing under a login storm', () => {
  it('runs at most one argon2 call per core but one; the others wait their turn and all succeed', async () => {
    const { hashPassword, passwordHashQueue, PASSWORD_HASH_CONCURRENCY } = await import('../src/auth/service.js');
    const { availableParallelism } = await import('node:os');
    expect(PASSWORD_HASH_CONCURRENCY).toBe(Math.max(1, availableParallelism() - 1));
    const calls = Array.from({ length: PASSWORD_HASH_CONCURRENCY + 3 }, (_, i) => hashPassword(`Tempête#${i}`));
    const seen = passwordHashQueue();
    expect(seen.running).toBeLessThanOrEqual(PASSWORD_HASH_CONCURRENCY);
    expect(seen.running + seen.waiting).toBe(PASSWORD_HASH_CONCURRENCY + 3);
    const hashes = await Promise.all(calls);
    expect(new Set(hashes).size).toBe(calls.length);
    expect(hashes.every((h) => h.startsWith('$argon2id$'))).toBe(true);
    expect(passwordHashQueue()).toEqual({ running: 0, waiting: 0 });
  });
});
