import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sentMails } from '../src/db/schema.js';
import { buildTestApp, createUser, inject, lastLinkTo, PASSWORD, tokenOf, type TestApp } from './helpers.js';

/** Every argon2 call of the server, counted: what a flood makes it hash is the point of these tests. */
const argon2 = vi.hoisted(() => ({ hash: 0, verify: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    hash: (...args: Parameters<typeof real.hash>) => {
      argon2.hash++;
      return real.hash(...args);
    },
    verify: (...args: Parameters<typeof real.verify>) => {
      argon2.verify++;
      return real.verify(...args);
    },
  };
});
const { FairQueue } = await import('../src/auth/fair-queue.js');
const { ACCOUNT_CEILING_MESSAGE, hashPassword, IP_LIMITS, LOGIN_ACCOUNT_CEILING, LOGIN_PER_ACCOUNT_AND_IP, passwordHashQueue } =
  await import('../src/auth/service.js');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const login = (email: string, password: string, ip: string) =>
  inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
const confirm = (token: string, password: string, ip = '10.5.0.1') =>
  inject(t, { method: 'POST', url: '/api/auth/confirm', payload: { token, password }, remoteAddress: ip });
const register = (email: string, ip: string) =>
  inject(t, { method: 'POST', url: '/api/auth/register', payload: { email }, remoteAddress: ip });
const unknown = () => `inconnu-${randomUUID().slice(0, 8)}@exemple.fr`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('POST /auth/confirm checks the link before hashing', () => {
  it('refuses a made-up or a used link without any argon2 call', async () => {
    const before = argon2.hash;
    const made_up = await confirm('n’importe-quoi-'.repeat(3), 'Valide#2026');
    expect(made_up.status).toBe(400);
    expect(made_up.body.message).toMatch(/n’est plus valide/);
    await register('confirme@exemple.fr', '10.5.0.2');
    const token = tokenOf(await lastLinkTo(t, 'confirme@exemple.fr'));
    expect((await confirm(token, 'Valide#2026')).status).toBe(200);
    expect(argon2.hash).toBe(before + 1);
    expect((await confirm(token, 'Encore#20266')).status).toBe(400);
    expect(argon2.hash).toBe(before + 1);
  });

  it('refuses the 121st confirmation of 10 minutes from one address, before looking at the link', async () => {
    expect(IP_LIMITS.confirm).toMatchObject({ limit: 120, windowSeconds: 600 });
    for (let i = 0; i < 120; i++) expect((await confirm(`faux-${i}`, 'Valide#2026', '10.5.1.1')).status).toBe(400);
    const blocked = await confirm('faux', 'Valide#2026', '10.5.1.1');
    expect(blocked).toMatchObject({
      status: 429,
      body: { message: 'Trop de tentatives depuis cette adresse. Réessayez dans quelques minutes.' },
    });
    expect((await confirm('faux', 'Valide#2026', '10.5.1.2')).status).toBe(400);
  });
});

describe('sign-up limited per address', () => {
  it('accepts 60 sign-ups in 10 minutes from one address, refuses the 61st, not another address', async () => {
    expect(IP_LIMITS.register).toMatchObject({ limit: 60, windowSeconds: 600 });
    for (let i = 0; i < 60; i++) expect((await register(unknown(), '10.6.0.1')).status).toBe(200);
    const blocked = await register(unknown(), '10.6.0.1');
    expect(blocked).toMatchObject({
      status: 429,
      body: { message: 'Trop d’inscriptions depuis cette adresse. Réessayez dans quelques minutes.' },
    });
    expect((await register(unknown(), '10.6.0.2')).status).toBe(200);
  });
});

describe('logins under a flood', () => {
  it('lets a room of 35 pupils behind one address log in within a minute', async () => {
    expect(IP_LIMITS.login).toMatchObject({ limit: 600, windowSeconds: 60 });
    const pupils = await Promise.all(Array.from({ length: 35 }, () => createUser(t, 'pupil')));
    // Each one mistypes once first.
    const results = await Promise.all(
      pupils.map(async (p) => [
        (await login(p.email, 'Faute#2026', '10.7.0.1')).status,
        (await login(p.email, PASSWORD, '10.7.0.1')).status,
      ]),
    );
    expect(results.every(([wrong, right]) => wrong === 401 && right === 200)).toBe(true);
  });

  it('refuses an address over its limit before any argon2 call', async () => {
    const saved = IP_LIMITS.login;
    IP_LIMITS.login = { ...saved, limit: 3 };
    try {
      const user = await createUser(t, 'pupil');
      for (let i = 0; i < 3; i++) expect((await login(user.email, 'Faute#2026', '10.7.1.1')).status).toBe(401);
      const before = argon2.verify;
      const blocked = await login(user.email, PASSWORD, '10.7.1.1');
      expect(blocked).toMatchObject({
        status: 429,
        body: { message: 'Trop de connexions depuis cette adresse. Réessayez dans une minute.' },
      });
      expect(argon2.verify).toBe(before);
      expect((await login(user.email, PASSWORD, '10.7.1.2')).status).toBe(200);
    } finally {
      IP_LIMITS.login = saved;
    }
  });

  it('an unknown e-mail costs the time of a known one but no argon2 call, once real logins have been timed', async () => {
    // One account per try: an account's own failures would slow it down (LOGIN_SLOWDOWN) and skew the comparison.
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser(t, 'pupil')));
    const timed = async (email: string, ip: string) => {
      const started = performance.now();
      expect((await login(email, 'Faute#2026', ip)).status).toBe(401);
      return performance.now() - started;
    };
    const known: number[] = [];
    for (let i = 0; i < 12; i++) known.push(await timed(users[i].email, `10.8.0.${i}`));
    const before = argon2.verify;
    const missing: number[] = [];
    for (let i = 0; i < 12; i++) missing.push(await timed(unknown(), `10.8.1.${i}`));
    expect(argon2.verify).toBe(before);
    // Same order of time: an argon2 verification (tens of ms), not a bare lookup.
    expect(median(missing)).toBeGreaterThan(median(known) * 0.5);
    expect(median(missing)).toBeLessThan(median(known) * 2 + 20);
    // A flood of 200 unknown e-mails leaves the hashing line empty.
    const flood = Array.from({ length: 200 }, (_, i) => login(unknown(), 'Faute#2026', `10.8.2.${i % 50}`));
    await new Promise((r) => setTimeout(r, 50));
    expect(passwordHashQueue().waiting).toBe(0);
    expect((await Promise.all(flood)).every((r) => r.status === 401)).toBe(true);
    expect(argon2.verify).toBe(before);
  });
});

describe('the hashing line is fair between clients', () => {
  it('serves a lone client’s hash before the rest of another client’s flood', async () => {
    const done: string[] = [];
    const flood = Array.from({ length: 12 }, (_, i) => hashPassword(`Déluge#${i}`, '203.0.113.1').then(() => done.push('flood')));
    const lone = hashPassword('Seul#2026', '198.51.100.1').then(() => done.push('lone'));
    await Promise.all([...flood, lone]);
    // Round-robin: at most the hashes already running and one more of the flood come first.
    expect(done.indexOf('lone')).toBeLessThanOrEqual(passwordHashQueue().running + 4);
    expect(done.indexOf('lone')).toBeLessThan(6);
  });

  it('round-robin between three clients, at most `concurrency` at once', async () => {
    const queue = new FairQueue(1);
    const order: string[] = [];
    let running = 0;
    let peak = 0;
    const task = (name: string) => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 2));
      order.push(name);
      running--;
    };
    await Promise.all([
      ...['a1', 'a2', 'a3', 'a4'].map((n) => queue.run('a', task(n))),
      ...['b1', 'b2'].map((n) => queue.run('b', task(n))),
      queue.run('c', task('c1')),
    ]);
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2', 'a4']);
    expect(peak).toBe(1);
    expect([queue.activeCount, queue.pendingCount]).toEqual([0, 0]);
  });
});

describe('IPv6: every per-address limit counts a whole /64 (decision 135)', () => {
  it('80 wrong passwords on one account from 80 addresses of one /64 in parallel: 429 past the per-account limit, without argon2', async () => {
    expect(LOGIN_PER_ACCOUNT_AND_IP.limit).toBe(30);
    const user = await createUser(t, 'pupil');
    const before = argon2.verify;
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) => login(user.email, `Faute#${i}`, `2001:db8:1::${(i + 1).toString(16)}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    expect(results.find((r) => r.status === 429)!.body.message).toBe('Trop de tentatives. Réessayez dans une minute.');
    expect(argon2.verify - before).toBeLessThanOrEqual(30);
    // From another /64 the per-address limit is fresh, but 80 tries put the account past its hourly ceiling.
    expect(await login(user.email, PASSWORD, '2001:db8:2::1')).toMatchObject({ status: 429, body: { message: ACCOUNT_CEILING_MESSAGE } });
    const other = await createUser(t, 'pupil');
    expect((await login(other.email, 'Faute#x', '2001:db8:1::1')).status).toBe(401);
  });

  it('sign-ups: 60 from one /64 in 10 minutes, the 61st refused whatever the address in it, not another /64', async () => {
    for (let i = 0; i < 60; i++) expect((await register(unknown(), `2001:db8:6:0:${i.toString(16)}::1`)).status).toBe(200);
    const blocked = await register(unknown(), '2001:db8:6:0:ffff:ffff:ffff:fffe');
    expect(blocked).toMatchObject({
      status: 429,
      body: { message: 'Trop d’inscriptions depuis cette adresse. Réessayez dans quelques minutes.' },
    });
    expect((await register(unknown(), '2001:db8:6:1::1')).status).toBe(200);
  });

  it('the IPv4-mapped form of an address shares its counters', async () => {
    for (let i = 0; i < 60; i++) expect((await register(unknown(), i % 2 ? '10.6.9.1' : '::ffff:10.6.9.1')).status).toBe(200);
    expect((await register(unknown(), '::ffff:10.6.9.1')).status).toBe(429);
  });
});

describe('per-account ceiling across all addresses (decision 135)', () => {
  const mailsTo = async (email: string) => (await t.database.db.select().from(sentMails).where(eq(sentMails.to, email))).length;

  it('past 50 wrong passwords in the hour from 50 addresses, the password alone opens nothing; the owner gets in by the mailed link', async () => {
    expect(LOGIN_ACCOUNT_CEILING).toEqual({ limit: 50, windowSeconds: 3600 });
    const owner = await createUser(t, 'pupil');
    // A botnet: one try per address, each far under every per-address limit.
    const tries = await Promise.all(Array.from({ length: 50 }, (_, i) => login(owner.email, `Faute#${i}`, `198.18.${i}.7`)));
    expect(tries.every((r) => r.status === 401)).toBe(true);
    expect(await mailsTo(owner.email)).toBe(0);
    // The 51st try, even with the right password (found by the botnet), is refused without any argon2 call.
    const before = argon2.verify;
    const found = await login(owner.email, PASSWORD, '198.18.99.7');
    expect(found).toMatchObject({ status: 429, body: { message: ACCOUNT_CEILING_MESSAGE } });
    expect((await login(owner.email, PASSWORD, '198.18.99.8')).status).toBe(429);
    expect(argon2.verify).toBe(before);
    // One link mailed, however many tries follow.
    expect(await mailsTo(owner.email)).toBe(1);
    const link = await lastLinkTo(t, owner.email);
    expect(link).toMatch(/\/confirm\?token=/);
    // The owner, from the link: logged in at once, with a new password that works again at once.
    const confirmed = await confirm(tokenOf(link), 'Nouveau#2026', '192.0.2.50');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.token).toEqual(expect.any(String));
    expect((await login(owner.email, 'Nouveau#2026', '192.0.2.50')).status).toBe(200);
    // The attacker's password is now the old one.
    expect((await login(owner.email, PASSWORD, '198.18.99.9')).status).toBe(401);
  });

  it('answers the same for an unknown e-mail, and mails nobody', async () => {
    const email = unknown();
    await Promise.all(Array.from({ length: 50 }, (_, i) => login(email, `Faute#${i}`, `198.19.${i}.7`)));
    const refused = await login(email, 'Faute#2026', '198.19.99.7');
    expect(refused).toMatchObject({ status: 429, body: { message: ACCOUNT_CEILING_MESSAGE } });
    expect(await mailsTo(email)).toBe(0);
  });
});
