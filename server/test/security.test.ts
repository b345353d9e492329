import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '../src/auth/service.js';
import { buildTestApp, createUser, inject, lastLinkTo, PUPIL_PROFILE, tokenOf, type TestApp } from './helpers.js';
import { makeChapter, makePdf, multipart } from './ops-helpers.js';
import { startSmtp } from './smtp.js';

/** Issue "Prove it", security basics: headers, CORS, and secrets kept out of the logs. */
describe('security headers and CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TILE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' } });
  });
  afterAll(async () => t.close());

  it('sends a CSP that allows only the app itself, data fonts (KaTeX), blob workers (pdf.js) and the tile server', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
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
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
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
    const login = await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: 'secret@exemple.fr', password: 'Tres#Secret2026' } });
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
    const answer = await inject(t, { method: 'POST', url: '/api/answer', headers: pupil.headers, payload: { exerciseId: numericId, answer: '271828', seq: 5 } });
    expect(answer.status).toBe(200);
    secrets.push('271828');
    const form = multipart({ exercise: pdfId }, { name: 'copie.pdf', bytes: await makePdf(1) });
    const upload = await inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...pupil.headers, ...form.headers }, payload: form.payload });
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
