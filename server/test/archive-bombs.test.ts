import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { institutions } from '../src/db/schema.js';
import { IMPORT_BOMB_MESSAGE } from '../src/users/import-file.js';
import { xlsxBomb } from './fixtures/zip-bombs.js';
import { buildTestApp, createUser, inject, type TestApp } from './helpers.js';
import { multipart } from './ops-helpers.js';

/**
 * Decision 132: an XLSX that inflates to hundreds of megabytes (a 200 KB file) is refused with a French 400
 * within seconds, its sizes declared or lied about, while the process's memory stays within the inflate
 * budget; eight at once are all refused, and a real workbook is read right after.
 */
let t: TestApp;
let teacher: { id: string; headers: Record<string, string> };
const MB = 1024 * 1024;

const importFile = (bytes: Buffer) => {
  const body = multipart({ preview: 'true' }, { name: 'eleves.xlsx', bytes });
  return inject(t, { method: 'POST', url: '/api/users/import', headers: { ...teacher.headers, ...body.headers }, payload: body.payload });
};

const workbook = () =>
  writeXlsxFile([
    ['E-mail', 'Prénom', 'Nom', 'Date de naissance', 'Classe', 'Genre'].map((value) => ({ value })),
    ['emmy@exemple.fr', 'Emmy', 'Noether', '23/03/2011', '3e', 'F'].map((value) => ({ value })),
  ]).toBuffer();

/** The process's highest RSS (its worker threads included) while `work` runs, sampled every 5 ms. */
async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; grewMb: number; ms: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, grewMb: (peak - before) / MB, ms: performance.now() - started };
  } finally {
    clearInterval(sampler);
  }
}

beforeAll(async () => {
  t = await buildTestApp();
  const [school] = await t.database.db.insert(institutions).values({ name: 'Collège Émilie du Châtelet' }).returning();
  teacher = await createUser(t, 'teacher', { institutionId: school.id });
  // A first import starts the pool's threads (tsx compiling them): the cases below measure reads.
  expect((await importFile(Buffer.from(await workbook()))).status).toBe(200);
}, 60_000);
afterAll(async () => t.close());

describe('archive bombs (decision 132)', () => {
  for (const [name, declaredSize] of [
    ['an XLSX whose sheet inflates to 200 MB', undefined],
    ['an XLSX whose headers say its sheet is 100 bytes', 100],
  ] as const) {
    it(`${name} is refused in French within seconds, memory bounded by the budget`, async () => {
      const bomb = xlsxBomb(200, { declaredSize });
      expect(bomb.length).toBeLessThan(400 * 1024);
      const { result: res, grewMb, ms } = await peakRss(() => importFile(bomb));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: IMPORT_BOMB_MESSAGE, code: 'bad_request' });
      expect(IMPORT_BOMB_MESSAGE).toBe(
        'Ce classeur se décompresse en un volume anormal : il est refusé. Enregistrez-le au format CSV, puis réessayez.',
      );
      expect(ms).toBeLessThan(10_000);
      // The budget (48 MB) and the thread's own churn; the 200 MB sheet, read whole, would be 200 MB more as bytes and as text.
      expect(grewMb).toBeLessThan(120);
    }, 30_000);
  }

  it('eight bombs at once are all refused, and a real workbook is read right after', async () => {
    const bomb = xlsxBomb(200);
    const { result: answers, ms } = await peakRss(() => Promise.all(Array.from({ length: 8 }, () => importFile(bomb))));
    expect(answers.map((r) => [r.status, r.body.message])).toEqual(Array(8).fill([400, IMPORT_BOMB_MESSAGE]));
    expect(ms).toBeLessThan(20_000);
    const res = await importFile(Buffer.from(await workbook()));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ preview: true, created: 1 });
  }, 60_000);
});
