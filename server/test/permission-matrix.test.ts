import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';
import { CALLERS, callRow, type Fixture, listAppRoutes, matches, MATRIX, seedMatrix } from './permission-matrix.js';

let t: TestApp;
let f: Fixture;
beforeAll(async () => {
  // No background job worker: QR decoding of the filed copies would change rows while the walk runs.
  t = await buildTestApp({ env: { JOBS_WORKER: 'off' } });
  await t.app.ready();
  f = await seedMatrix(t);
});
afterAll(async () => t.close());

describe('permission matrix', () => {
  it('has one row per route the app serves, and no row for a route it does not serve', () => {
    const served = listAppRoutes(t.app.printRoutes({ commonPrefix: false }));
    const table = MATRIX.map((row) => row.route).sort();
    expect(new Set(table).size, 'a route appears twice in the table').toBe(table.length);
    expect(
      served.filter((route) => !table.includes(route)),
      'routes missing from server/test/permission-matrix.ts',
    ).toEqual([]);
    expect(
      table.filter((route) => !served.includes(route)),
      'table rows for routes the app does not serve',
    ).toEqual([]);
    // Cross-check with the OpenAPI document: every documented operation is a served route.
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.filter((route) => !served.includes(route))).toEqual([]);
  });

  it('gives every caller the expected answer on every route', async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const row of MATRIX) {
      // The admin column runs last: a successful delete or rename then affects no other caller.
      for (const caller of CALLERS) {
        const res = await callRow(t, row, f, caller);
        checked++;
        const expected = row.expect[caller];
        if (!matches(res.status, expected)) {
          mismatches.push(`${row.route} as ${caller}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        } else if (res.status >= 400 && row.method !== 'HEAD') {
          // Refusals carry a French message, never a stack trace (an answer to HEAD has no body).
          if (typeof res.body?.message !== 'string' || res.body.message.length === 0) {
            mismatches.push(`${row.route} as ${caller}: ${res.status} without a message`);
          }
        }
      }
    }
    console.info(`permission matrix: ${MATRIX.length} routes × ${CALLERS.length} callers = ${checked} requests checked`);
    expect(mismatches).toEqual([]);
  }, 120_000);
});
