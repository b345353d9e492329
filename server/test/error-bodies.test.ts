import { randomUUID } from 'node:crypto';
import { ERROR_CODES } from '@olympe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, inject, type TestApp } from './helpers.js';
import { CALLERS, callRow, type Fixture, MATRIX, seedMatrix } from './permission-matrix.js';

/**
 * Decision 146: every error the server sends is `{ message, code }`, a French message and a code of
 * contract/src/errors.ts, whoever refused: a guard, a service, a policy, the router, the body parser, tus.
 */

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  t = await buildTestApp({ env: { JOBS_WORKER: 'off' } });
  await t.app.ready();
  f = await seedMatrix(t);
}, 120_000);
afterAll(async () => t.close());

/** Words of Fastify's, zod's and tus's own English messages: none reaches a person. */
const ENGLISH = /\b(the|is|not|found|invalid|request|error|body|must|should|expected|required|unsupported|route|upload)\b/i;

/** What is wrong with an error body, or null when it is a French `{ message, code }`. */
function faultOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return `no JSON body: ${String(body).slice(0, 80)}`;
  const { message, code } = body as { message?: unknown; code?: unknown };
  if (typeof message !== 'string' || message.trim() === '') return 'no message';
  if (ENGLISH.test(message)) return `message in English: ${message}`;
  if (!(ERROR_CODES as readonly unknown[]).includes(code)) return `unknown code ${JSON.stringify(code)}`;
  return null;
}

describe('every error body is { message, code }', () => {
  it('on every row of the permission matrix, for each caller it refuses', async () => {
    const faults: string[] = [];
    let checked = 0;
    for (const row of MATRIX) {
      // An answer to HEAD has no body.
      if (row.method === 'HEAD') continue;
      for (const caller of CALLERS) {
        const expected = row.expect[caller];
        if (expected === 'ok' || expected < 400) continue;
        const res = await callRow(t, row, f, caller);
        checked++;
        if (res.status !== expected) continue; // permission-matrix.test.ts reports it
        const fault = faultOf(res.body);
        if (fault) faults.push(`${row.route} as ${caller} (${res.status}): ${fault}`);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(faults).toEqual([]);
  }, 120_000);

  it('on the refusals of the router, the body parser, multipart and tus', async () => {
    const teacher = f.headers.teacher;
    const cases: Array<[string, Promise<{ status: number; body: any }>, number, string]> = [
      ['unknown address', inject(t, { method: 'GET', url: '/api/nowhere' }), 404, 'not_found'],
      ['bad %-escape', inject(t, { method: 'GET', url: '/api/group/%zz' }), 400, 'bad_request'],
      ['parameter over the length limit', inject(t, { method: 'GET', url: `/api/group/${'a'.repeat(5000)}` }), 414, 'too_large'],
      [
        'body over the limit',
        inject(t, {
          method: 'PUT',
          url: '/api/auth/me',
          headers: { ...teacher, 'content-type': 'application/json' },
          payload: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`,
        }),
        413,
        'too_large',
      ],
      [
        'unknown content type',
        inject(t, { method: 'PUT', url: '/api/auth/me', headers: { ...teacher, 'content-type': 'text/x-olympe' }, payload: 'x' }),
        415,
        'unsupported_media_type',
      ],
      ['schema validation', inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: 'x' } }), 400, 'bad_request'],
      [
        'NUL in a body',
        inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: 'a\u0000@b.fr', password: 'x' } }),
        400,
        'bad_request',
      ],
      [
        'not multipart',
        inject(t, { method: 'POST', url: '/api/pdfs', headers: { ...teacher, 'content-type': 'application/json' }, payload: {} }),
        415,
        'unsupported_media_type',
      ],
      [
        'tus: unknown upload',
        inject(t, {
          method: 'PATCH',
          url: `/api/uploads/${randomUUID()}`,
          headers: { ...teacher, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
          payload: Buffer.from('x'),
        }),
        404,
        'not_found',
      ],
      [
        'tus: another protocol version',
        inject(t, { method: 'POST', url: '/api/uploads', headers: { ...teacher, 'tus-resumable': '0.2.2', 'upload-length': '10' } }),
        412,
        'bad_request',
      ],
    ];
    const faults: string[] = [];
    for (const [name, call, status, code] of cases) {
      const res = await call;
      const fault = res.status !== status ? `status ${res.status}` : res.body?.code !== code ? `code ${res.body?.code}` : faultOf(res.body);
      if (fault) faults.push(`${name}: ${fault} ${JSON.stringify(res.body).slice(0, 160)}`);
    }
    expect(faults).toEqual([]);
  });

  it('keeps the fields an error carries beside its code', async () => {
    const res = await inject(t, { method: 'POST', url: '/api/auth/login', payload: { email: 'x' } });
    expect(res.body).toMatchObject({ code: 'bad_request', fields: { email: expect.any(String) } });
  });
});
