import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { sql } from 'drizzle-orm';
import { IP_LIMITS, LOGIN_PER_ACCOUNT_AND_IP, LOGIN_SLOWDOWN } from '../src/auth/service.js';
import { hitRateLimit, purgeExpiredRateLimits, RATE_LIMIT_MAX_WINDOW_SECONDS, redisRateLimiter } from '../src/http/rate-limit.js';
import { buildTestApp, inject, type TestApp } from './helpers.js';

/**
 * REDIS_URL (docs/product.md#design-5): rate limits shared by every instance through Redis. Needs a real Redis:
 * TEST_REDIS_URL (CI sets redis://127.0.0.1:6379); without it the Redis cases are not run and the
 * run says so in its name, so a green run never claims them.
 */
const redisUrl = process.env.TEST_REDIS_URL;

/** Sets some of an exported settings object for the tests of a block, and restores it after. */
function withSettings<T extends object>(target: T, values: Partial<T>) {
  const saved = { ...target };
  beforeAll(() => void Object.assign(target, values));
  afterAll(() => void Object.assign(target, saved));
}

describe('rate limits in PostgreSQL (default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());
  // The slowdown has its own tests (auth-flood.test.ts); here it would only make the loop slow.
  withSettings(LOGIN_SLOWDOWN, { freeFailures: 1000 });

  it('blocks the 31st login of a minute for one (e-mail, IP), not another IP', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
    const login = (ip: string) =>
      inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password: 'x' }, remoteAddress: ip });
    expect(LOGIN_PER_ACCOUNT_AND_IP).toEqual({ limit: 30, windowSeconds: 60 });
    for (let i = 0; i < 30; i++) expect((await login('10.1.0.1')).status).toBe(401);
    const blocked = await login('10.1.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Trop de tentatives. Réessayez dans une minute.');
    expect((await login('10.1.0.2')).status).toBe(401);
  });

  it('counts hits and reads peeks on several keys in one statement', async () => {
    const limiter = t.app.deps.limiter;
    const [a, b] = [`batch:${randomUUID()}`, `batch:${randomUUID()}`];
    expect(
      await limiter.batch([
        { key: a, windowSeconds: 60 },
        { key: b, windowSeconds: 60, peek: true },
      ]),
    ).toEqual([1, 0]);
    await limiter.hit(b, 60);
    expect(
      await limiter.batch([
        { key: a, windowSeconds: 60 },
        { key: b, windowSeconds: 60, peek: true },
      ]),
    ).toEqual([2, 1]);
    expect(await limiter.peek(a, 60)).toBe(2);
  });

  it('purges the rows whose window is over, and keeps the others', async () => {
    const db = t.database.db;
    await db.execute(sql`DELETE FROM rate_limits`);
    await db.execute(sql`INSERT INTO rate_limits (key, count, window_start) VALUES
      ('old:a', 3, now() - interval '2 hours'), ('old:b', 1, now() - interval '61 minutes'), ('fresh', 2, now() - interval '5 minutes')`);
    expect(await purgeExpiredRateLimits(db)).toBe(2);
    const rows = await db.execute(sql`SELECT key FROM rate_limits ORDER BY key`);
    expect((rows as unknown as { rows: Array<{ key: string }> }).rows.map((r) => r.key)).toEqual(['fresh']);
    // No limit may use a window the purge would cut short.
    await expect(
      hitRateLimit(t.app.deps.limiter, { key: 'k', limit: 1, windowSeconds: RATE_LIMIT_MAX_WINDOW_SECONDS + 1 }),
    ).rejects.toThrow(/window/);
  });

  it('the running server purges them at start and then periodically', async () => {
    const jobs = await buildTestApp({ env: { JOBS_WORKER: 'on' } });
    try {
      const db = jobs.database.db;
      await db.execute(
        sql`INSERT INTO rate_limits (key, count, window_start) VALUES ('login-ip:10.0.0.9', 500, now() - interval '3 hours')`,
      );
      await jobs.app.ready();
      const left = async () =>
        ((await db.execute(sql`SELECT count(*)::int AS n FROM rate_limits`)) as unknown as { rows: Array<{ n: number }> }).rows[0].n;
      for (let i = 0; i < 50 && (await left()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await left()).toBe(0);
    } finally {
      await jobs.close();
    }
  });
});

describe('TRUST_PROXY: who may name the client IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());
  // The per-address login limit is the probe: whose address does it count?
  withSettings(IP_LIMITS, { login: { ...IP_LIMITS.login, limit: 10 } });
  const login = (peer: string, forwardedFor: string) =>
    inject(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: `rl-${randomUUID().slice(0, 8)}@exemple.fr`, password: 'x' },
      remoteAddress: peer,
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('by default a client that is not a local proxy cannot escape the limit with a forged X-Forwarded-For', async () => {
    for (let i = 0; i < 10; i++) expect((await login('203.0.113.9', `198.51.100.${i}`)).status).toBe(401);
    const blocked = await login('203.0.113.9', '198.51.100.77');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Trop de connexions depuis cette adresse. Réessayez dans une minute.');
  });

  it('by default a reverse proxy on this host names the client', async () => {
    for (let i = 0; i < 10; i++) expect((await login('127.0.0.1', '198.51.100.20')).status).toBe(401);
    expect((await login('127.0.0.1', '198.51.100.20')).status).toBe(429);
    expect((await login('127.0.0.1', '198.51.100.21')).status).toBe(401);
  });

  it('trusts the proxies TRUST_PROXY names, and refuses a hop count or a malformed value at start', async () => {
    const behindLb = await buildTestApp({ env: { TRUST_PROXY: '10.0.0.0/8, loopback' } });
    try {
      const viaLb = (client: string) =>
        inject(behindLb, {
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: `rl-${randomUUID().slice(0, 8)}@exemple.fr`, password: 'x' },
          remoteAddress: '10.9.8.7',
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < 10; i++) expect((await viaLb('198.51.100.30')).status).toBe(401);
      expect((await viaLb('198.51.100.30')).status).toBe(429);
      expect((await viaLb('198.51.100.31')).status).toBe(401);
    } finally {
      await behindLb.close();
    }
    expect(() => loadConfig({ DATA_DIR: t.config.dataDir, TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ DATA_DIR: t.config.dataDir, TRUST_PROXY: '<script>' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ DATA_DIR: t.config.dataDir, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: t.config.dataDir }).trustProxy).toBe('loopback');
  });
});

describe.runIf(!!redisUrl)(`rate limits in Redis (${redisUrl ?? 'TEST_REDIS_URL not set'})`, () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    // Two instances, each with its own database, sharing one Redis: only Redis can make them agree.
    a = await buildTestApp({ env: { REDIS_URL: redisUrl! } });
    b = await buildTestApp({ env: { REDIS_URL: redisUrl! } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  withSettings(LOGIN_SLOWDOWN, { freeFailures: 1000 });

  it('counts the logins of one (e-mail, IP) across two instances', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
    const login = (t: TestApp) =>
      inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password: 'x' }, remoteAddress: '10.2.0.1' });
    for (let i = 0; i < LOGIN_PER_ACCOUNT_AND_IP.limit; i++) expect((await login(i % 2 ? a : b)).status).toBe(401);
    expect((await login(a)).status).toBe(429);
    expect((await login(b)).status).toBe(429);
    const rows = await a.database.db.execute('SELECT count(*)::int AS n FROM rate_limits');
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
  });

  it('reads a count without adding to it, forgets a key on reset, and batches hits and peeks', async () => {
    const limiter = redisRateLimiter(redisUrl!);
    try {
      const key = `test:${randomUUID()}`;
      expect(await limiter.peek(key, 60)).toBe(0);
      await limiter.hit(key, 60);
      await limiter.hit(key, 60);
      expect(await limiter.peek(key, 60)).toBe(2);
      expect(await limiter.peek(key, 60)).toBe(2);
      await limiter.reset(key);
      expect(await limiter.peek(key, 60)).toBe(0);
      const other = `test:${randomUUID()}`;
      expect(
        await limiter.batch([
          { key, windowSeconds: 60 },
          { key: other, windowSeconds: 60, peek: true },
        ]),
      ).toEqual([1, 0]);
      expect(
        await limiter.batch([
          { key, windowSeconds: 60 },
          { key: other, windowSeconds: 60 },
        ]),
      ).toEqual([2, 1]);
    } finally {
      await limiter.close();
    }
  });

  it('slows an account down after wrong passwords on any instance, and a good password clears it', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
    const saved = { ...LOGIN_SLOWDOWN };
    Object.assign(LOGIN_SLOWDOWN, { freeFailures: 2, baseMs: 300, capMs: 300 });
    try {
      const key = `login-fail:${email}`;
      const login = (t: TestApp) =>
        inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password: 'x' }, remoteAddress: '10.2.0.3' });
      await login(a);
      await login(b);
      expect(await a.app.deps.limiter.peek(key, 900)).toBe(2);
      const started = performance.now();
      expect((await login(a)).status).toBe(401);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      Object.assign(LOGIN_SLOWDOWN, saved);
    }
  });

  it('starts a new window after the old one expires', async () => {
    const limiter = redisRateLimiter(redisUrl!);
    try {
      const key = `test:${randomUUID()}`;
      expect(await limiter.hit(key, 1)).toBe(1);
      expect(await limiter.hit(key, 1)).toBe(2);
      await new Promise((r) => setTimeout(r, 1100));
      expect(await limiter.hit(key, 1)).toBe(1);
    } finally {
      await limiter.close();
    }
  });

  it('a request fails cleanly (no crash, French message) when Redis is unreachable', async () => {
    const t = await buildTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: 'x@exemple.fr', password: 'x' } });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('Le service est momentanément indisponible. Réessayez dans un instant.');
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    } finally {
      await t.close();
    }
  });
});
