import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { redisRateLimiter } from '../src/http/rate-limit.js';
import { buildTestApp, inject, type TestApp } from './helpers.js';

/**
 * REDIS_URL (DESIGN §5): rate limits shared by every instance through Redis. Needs a real Redis:
 * TEST_REDIS_URL (CI sets redis://127.0.0.1:6379); without it the Redis cases are not run and the
 * run says so in its name, so a green run never claims them.
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe('rate limits in PostgreSQL (default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('blocks the 11th login of a minute for one (e-mail, IP), not another IP', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
    const login = (ip: string) => inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password: 'x' }, remoteAddress: ip });
    for (let i = 0; i < 10; i++) expect((await login('10.1.0.1')).status).toBe(401);
    const blocked = await login('10.1.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Trop de tentatives. Réessayez dans une minute.');
    expect((await login('10.1.0.2')).status).toBe(401);
  });
});

describe('TRUST_PROXY: who may name the client IP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());
  const login = (email: string, peer: string, forwardedFor: string) =>
    inject(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'x' },
      remoteAddress: peer,
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('by default a client that is not a local proxy cannot escape the limit with a forged X-Forwarded-For', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
    for (let i = 0; i < 10; i++) expect((await login(email, '203.0.113.9', `198.51.100.${i}`)).status).toBe(401);
    expect((await login(email, '203.0.113.9', '198.51.100.77')).status).toBe(429);
  });

  it('by default a reverse proxy on this host names the client', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
    for (let i = 0; i < 10; i++) expect((await login(email, '127.0.0.1', '198.51.100.20')).status).toBe(401);
    expect((await login(email, '127.0.0.1', '198.51.100.20')).status).toBe(429);
    expect((await login(email, '127.0.0.1', '198.51.100.21')).status).toBe(401);
  });

  it('trusts the proxies TRUST_PROXY names, and refuses a hop count or a malformed value at start', async () => {
    const behindLb = await buildTestApp({ env: { TRUST_PROXY: '10.0.0.0/8, loopback' } });
    try {
      const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
      const viaLb = (client: string) =>
        inject(behindLb, { method: 'POST', url: '/api/auth/login', payload: { email, password: 'x' }, remoteAddress: '10.9.8.7', headers: { 'x-forwarded-for': client } });
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

  it('counts the logins of one (e-mail, IP) across two instances', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@exemple.fr`;
    const login = (t: TestApp) => inject(t, { method: 'POST', url: '/api/auth/login', payload: { email, password: 'x' }, remoteAddress: '10.2.0.1' });
    for (let i = 0; i < 10; i++) expect((await login(i % 2 ? a : b)).status).toBe(401);
    expect((await login(a)).status).toBe(429);
    expect((await login(b)).status).toBe(429);
    const rows = await a.database.db.execute('SELECT count(*)::int AS n FROM rate_limits');
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0].n).toBe(0);
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
