/**
 * Decision 94: the review page (/overview) at 10,000 pupils × 12 exercises on real PostgreSQL, the paged
 * route against the whole list, each case once per round in turn so the machine's load hits them alike.
 *
 *   node --import tsx bench/grading/overview.ts                 # seeds olympe_bench_grading, drops it after
 *   REUSE=1 BENCH_DB=x node --import tsx bench/grading/overview.ts  # a database seeded before (KEEP=1 of measure.ts)
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { column, rows } from '../../server/src/db/query.js';
import { benchUrl, createBenchDb, dropBenchDb } from './db.js';
import { seedGradingBench } from './seed.js';

const PUPILS = Number(process.env.PUPILS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 10);
const REUSE = !!process.env.REUSE;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;

if (!REUSE) await createBenchDb();
const database = await openDatabase({ databaseUrl: benchUrl() });
try {
  await database.migrate();
  let chapterId: string;
  let memberId: string;
  if (REUSE) {
    [{ id: chapterId }] = await rows(
      database.db,
      z.object({ id: z.string() }),
      sql`SELECT id FROM chapters WHERE title LIKE 'Bench correction %' ORDER BY created_at DESC LIMIT 1`,
    );
    [{ id: memberId }] = await rows(
      database.db,
      z.object({ id: z.string() }),
      sql`SELECT id FROM users WHERE email LIKE 'correcteur.%@exemple.fr' ORDER BY created_at DESC LIMIT 1`,
    );
  } else {
    ({ chapterId, memberId } = await seedGradingBench(database.db, PUPILS));
  }
  await database.db.execute(sql`VACUUM ANALYZE`);
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-overview-')),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database, logger: false });
  const member = { authorization: `Bearer ${await app.deps.signer.sign({ userId: memberId, tokenVersion: 0 })}` };
  const base = `/api/answer/overview/${chapterId}`;
  const cases: Array<[string, string]> = [
    ['whole list (before)', base],
    ['counts, limit=0', `${base}?limit=0`],
    ['first page, by date', `${base}?limit=200`],
    ['page at offset 20,000, by date', `${base}?limit=200&offset=20000`],
    ['first page, by pupil', `${base}?limit=200&sort=student`],
    ['first page, by grade', `${base}?limit=200&sort=grade&dir=desc`],
    ['first page, pupil filter « lefevre 12 »', `${base}?limit=200&student=lefevre%2012`],
    ['counts, pupil filter « lefevre 12 »', `${base}?limit=0&student=lefevre%2012`],
    ['first page, exercise filter « exercice 3 »', `${base}?limit=200&exercise=exercice%203`],
  ];
  const times = new Map<string, number[]>(cases.map(([label]) => [label, []]));
  const sizes = new Map<string, { raw: number; gzip: number }>();
  for (let round = 0; round <= RUNS; round++) {
    for (const [label, url] of cases) {
      if (label.startsWith('whole') && round > 3) continue;
      const start = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: member });
      const elapsed = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      // Round 0 warms each shape up (plans, caches) and is not counted.
      if (round > 0) times.get(label)!.push(elapsed);
      if (round === 0) sizes.set(label, { raw: res.rawPayload.length, gzip: gzipSync(res.rawPayload).length });
    }
  }
  const [{ n }] = await rows(database.db, z.object({ n: column.number }), sql`SELECT count(*)::int AS n FROM answers`);
  console.log(`${PUPILS} pupils × 12 exercises, ${n} answer rows; medians of ${RUNS} rounds (whole list: 3)`);
  for (const [label] of cases) {
    const xs = times.get(label)!;
    const size = sizes.get(label)!;
    console.log(
      `${label.padEnd(44)} median ${ms(median(xs)).padStart(7)}  min ${ms(Math.min(...xs)).padStart(7)}  max ${ms(Math.max(...xs)).padStart(7)}  body ${kib(size.raw)} (gzip ${kib(size.gzip)})`,
    );
  }
  await app.close();
} finally {
  await database.close();
  if (!REUSE && !process.env.KEEP) await dropBenchDb();
}
