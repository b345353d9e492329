import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '../src/auth/service.js';
import { buildTestApp, createUser, inject, lastLinkTo, PUPIL_PROFILE, tokenOf, type TestApp } from './helpers.js';
import { makeChapter, makePdf, multipart } from './ops-helpers.js';
import { startSmtp } from './smtp.js';

/** The qualities of docs/product.md#design-4, security basics: headers, CORS, and secrets kept out of the logs. */
describe('security headers and CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TILE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' } });
  });
  afterAll(async () => t.close());

  it('sends a CSP that allows only the app itself, data fonts (KaTeX), blob workers (pdf.js), WebAssembly (QR scanner) and the tile server', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    // 'wasm-unsafe-eval' lets the QR scanner of the centre page compile zxing-wasm; no eval of JavaScript.
    expect(directives['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['worker-src']).toEqual(["'self'", 'blob:']);
    expect(directives['font-src']).toEqual(["'self'", 'data:']);
    expect(directives['img-src']).toEqual(expect.arrayContaining(["'self'", 'https://*.tile.example.org']));
    expect(directives['img-src']).not.toContain('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('is closed to other origins: no CORS header on a preflight or on a cross-origin call', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/login',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const call = await t.app.inject({ method: 'GET', url: '/api/chapter', headers: { origin: 'https://evil.example' } });
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('secrets never reach the logs (info level, real SMTP as in production)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({
      env: { LOG_LEVEL: 'info', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('logs neither passwords, tokens, mailed links, signed links nor answers', async () => {
    const secrets: string[] = [];
    // Sign-up, the mailed link, the password, a login: token and password never logged.
    await inject(t, { method: 'POST', url: '/api/auth/register', payload: { email: 'secret@exemple.fr' } });
    const link = await lastLinkTo(t, 'secret@exemple.fr');
    const emailToken = tokenOf(link);
    secrets.push(emailToken);
    await inject(t, { method: 'POST', url: '/api/auth/confirm', payload: { token: emailToken, password: 'Tres#Secret2026' } });
    secrets.push('Tres#Secret2026');
    const login = await inject(t, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'secret@exemple.fr', password: 'Tres#Secret2026' },
    });
    expect(login.status).toBe(200);
    const jwt = login.body.token as string;
    secrets.push(jwt);
    await inject(t, { method: 'PUT', url: '/api/auth/me', headers: { authorization: `Bearer ${jwt}` }, payload: {} });
    // A failed login with a wrong password.
    await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: 'secret@exemple.fr', password: 'Mauvais#Secret1' } });
    secrets.push('Mauvais#Secret1');

    // The first admin with SMTP: the link is mailed, not logged.
    await bootstrapAdmin(t.app.deps, 'premier.admin@exemple.fr');
    secrets.push(tokenOf(await lastLinkTo(t, 'premier.admin@exemple.fr')));

    // An answer and a signed PDF link.
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE });
    const { numericId, pdfId } = await makeChapter(t.database.db);
    const answer = await inject(t, {
      method: 'POST',
      url: '/api/answer',
      headers: pupil.headers,
      payload: { exerciseId: numericId, answer: '271828', seq: 5 },
    });
    expect(answer.status).toBe(200);
    secrets.push('271828');
    const form = multipart({ exercise: pdfId }, { name: 'copie.pdf', bytes: await makePdf(1) });
    const upload = await inject(t, {
      method: 'POST',
      url: '/api/pdfs',
      headers: { ...pupil.headers, ...form.headers },
      payload: form.payload,
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const file = (upload.body.path as string).slice('pdfs/'.length);
    const signed = await inject(t, { method: 'GET', url: `/api/pdfs/${file}/link`, headers: pupil.headers });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const url = new URL(signed.body.url, 'http://olympe.test');
    secrets.push(url.searchParams.get('sig')!);
    expect((await t.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(200);

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(log).toContain('request completed');
    for (const secret of secrets) expect(secret && log.includes(secret), `secret found in the logs: ${secret.slice(0, 12)}…`).toBe(false);
    expect(log).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}/);
    expect(log).not.toMatch(/confirm\?token=[\w-]{10,}/);
    expect(log).not.toMatch(/argon2id/);
  });
});

describe('answers not kept in caches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('every API answer says no-store unless the route chose otherwise; the app’s assets keep theirs', async () => {
    const pupil = await createUser(t, 'pupil', { ...PUPIL_PROFILE });
    const { chapterId, numericId, pdfId } = await makeChapter(t.database.db);
    const calls = [
      await inject(t, { method: 'PUT', url: '/api/auth/me', headers: pupil.headers, payload: {} }),
      await inject(t, { method: 'GET', url: '/api/chapter', headers: pupil.headers }),
      await inject(t, { method: 'GET', url: `/api/answer/chapter/${chapterId}`, headers: pupil.headers }),
      await inject(t, {
        method: 'POST',
        url: '/api/answer',
        headers: pupil.headers,
        payload: { exerciseId: numericId, answer: '12', seq: 1 },
      }),
      await inject(t, { method: 'GET', url: '/api/chapter', headers: { authorization: 'Bearer faux' } }),
      await inject(t, { method: 'GET', url: '/api/nulle-part', headers: pupil.headers }),
    ];
    for (const res of calls) expect(res.headers['cache-control'], JSON.stringify(res.body)).toBe('no-store');
    // A PDF keeps its own: private (never a shared cache), 5 minutes for the viewer's range requests.
    const form = multipart({ exercise: pdfId }, { name: 'copie.pdf', bytes: await makePdf(1) });
    const upload = await inject(t, {
      method: 'POST',
      url: '/api/pdfs',
      headers: { ...pupil.headers, ...form.headers },
      payload: form.payload,
    });
    const pdf = await t.app.inject({ method: 'GET', url: `/api/${upload.body.path}`, headers: pupil.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['cache-control']).toBe('private, max-age=300');
  });
});

describe('answer saves limited per pupil', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('takes a burst of 20 saves, refuses the next in French, takes more after a pause; another pupil is not affected', async () => {
    const { ANSWER_SAVES } = await import('../src/http/save-limit.js');
    expect(ANSWER_SAVES).toEqual({ burst: 20, perSecond: 10 });
    const { numericId } = await makeChapter(t.database.db);
    const [pupil, other] = [await createUser(t, 'pupil', { ...PUPIL_PROFILE }), await createUser(t, 'pupil', { ...PUPIL_PROFILE })];
    const save = (who: typeof pupil, seq: number) =>
      inject(t, { method: 'POST', url: '/api/answer', headers: who.headers, payload: { exerciseId: numericId, answer: String(seq), seq } });
    const burst = await Promise.all(Array.from({ length: 25 }, (_, i) => save(pupil, i + 1)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(20);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(25);
    const refused = burst.find((r) => r.status === 429)!;
    expect(refused.body.message).toBe('Trop d’enregistrements en peu de temps. Patientez une seconde avant de réessayer.');
    expect((await save(other, 1)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await save(pupil, 100)).status).toBe(200);
  });

  it('a token bucket refills at its rate and never above its burst', async () => {
    const { TokenBuckets } = await import('../src/http/save-limit.js');
    let now = 0;
    const buckets = new TokenBuckets({ burst: 3, perSecond: 2 }, () => now);
    expect([1, 2, 3, 4].map(() => buckets.take('a'))).toEqual([true, true, true, false]);
    now += 499;
    expect(buckets.take('a')).toBe(false);
    now += 1;
    expect(buckets.take('a')).toBe(true);
    now += 60_000;
    expect([1, 2, 3, 4].map(() => buckets.take('a'))).toEqual([true, true, true, false]);
    // Idle full buckets are dropped as others arrive.
    now += 120_000;
    buckets.take('b');
    expect(buckets.size).toBe(1);
  });
});

describe('the OpenAPI description (API_DOCS)', () => {
  it('is served by default to the demo and the tests, not by `npm start` unless API_DOCS=on', async () => {
    const { loadConfig } = await import('../src/config.js');
    const dataDir = path.join(process.env.OLYMPE_TEST_DIR!, 'api-docs');
    expect(loadConfig({ DATA_DIR: dataDir }).apiDocs).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir }, { apiDocs: false }).apiDocs).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, API_DOCS: 'on' }, { apiDocs: false }).apiDocs).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, API_DOCS: 'off' }).apiDocs).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dataDir, API_DOCS: 'yes' })).toThrow(/API_DOCS/);
    const on = await buildTestApp();
    const off = await buildTestApp({ env: { API_DOCS: 'off' } });
    try {
      const docs = await inject(on, { method: 'GET', url: '/api/docs' });
      expect(docs.status).toBe(200);
      expect(docs.body.openapi).toMatch(/^3\./);
      expect(await inject(off, { method: 'GET', url: '/api/docs' })).toMatchObject({ status: 404, body: { message: 'Adresse inconnue.' } });
      expect((await inject(off, { method: 'GET', url: '/api/health' })).status).toBe(200);
    } finally {
      await on.close();
      await off.close();
    }
  });

  it('npm start turns it off', async () => {
    const main = readFileSync(path.join(import.meta.dirname, '../src/main.ts'), 'utf8');
    expect(main).toMatch(/loadConfig\(env, \{ apiDocs: false \}\)/);
  });
});
