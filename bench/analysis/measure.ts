/**
 * Cheat analysis at volume: 2,000 pupils × 20 exercises × 30 focus events each, on PostgreSQL.
 * Creates the database olympe_bench_analysis (dropped at the end; KEEP=1 keeps it), seeds it,
 * then times GET /answer/analysis/{chapterId} through app.inject, and the service alone.
 *
 *   node --import tsx bench/analysis/measure.ts      # PUPILS=2000 EXERCISES=20 EVENTS=30 RUNS=10
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { computeAnalysis } from '../../server/src/analysis/compute.js';
import { getChapterAnalysis, loadAnalysisInput } from '../../server/src/analysis/service.js';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { seedAnalysisBench } from './seed.js';

const PUPILS = Number(process.env.PUPILS ?? 2_000);
const EXERCISES = Number(process.env.EXERCISES ?? 20);
const EVENTS = Number(process.env.EVENTS ?? 30);
const RUNS = Number(process.env.RUNS ?? 10);
const SERVER_URL = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BENCH_DB = 'olympe_bench_analysis';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
await admin(`CREATE DATABASE ${BENCH_DB}`);
const url = new URL(SERVER_URL);
url.pathname = `/${BENCH_DB}`;
const database = await openDatabase({ databaseUrl: url.toString() });
try {
  await database.migrate();
  const t0 = performance.now();
  const bench = await seedAnalysisBench(database.db, { pupils: PUPILS, exercises: EXERCISES, events: EVENTS });
  await database.db.execute(sql`VACUUM ANALYZE`);
  const count = async (table: string) =>
    ((await database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as { rows: Array<{ n: number }> }).rows[0]
      .n;
  console.log(
    `Seed: ${PUPILS} pupils × ${EXERCISES} exercises, ${await count('focus_events')} focus events, ${await count('answers')} answer rows, ${ms(performance.now() - t0)}`,
  );

  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-analysis-')),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database, logger: false });
  // A busy machine skews every figure: say how busy it was.
  console.log(
    `Load average at start: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (${os.cpus().length} CPUs)`,
  );
  const headers = { authorization: `Bearer ${await app.deps.signer.sign({ userId: bench.adminId, tokenVersion: 0 })}` };

  const times: number[] = [];
  let body = '';
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/answer/analysis/${bench.chapterId}`, headers });
    times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`);
    body = res.body;
  }
  const rest = times.slice(1);
  console.log(
    `GET /answer/analysis (${PUPILS} pupils): first ${ms(times[0])}, median ${ms(median(rest))}, max ${ms(Math.max(...rest))}, ` +
      `body ${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB (gzip ${(gzipSync(body).length / 1024).toFixed(0)} KiB)`,
  );
  console.log(
    `Load average at end: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const result = JSON.parse(body);
  const pairs = result.pairAnalysis.reduce((n: number, g: { pairs: unknown[] }) => n + g.pairs.length, 0);
  console.log(`  individual entries: ${result.individualAnalysis.length}, IP groups: ${result.pairAnalysis.length}, pairs: ${pairs}`);
  console.log(
    `  top score: ${result.individualAnalysis[0]?.score}, biggest IP group: ${Math.max(...result.pairAnalysis.map((g: { userIds: unknown[] }) => g.userIds.length))} pupils`,
  );

  const serviceTimes: number[] = [];
  const loadTimes: number[] = [];
  const computeTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let start = performance.now();
    await getChapterAnalysis(database.db, bench.chapterId);
    serviceTimes.push(performance.now() - start);
    start = performance.now();
    const { input } = await loadAnalysisInput(database.db, bench.chapterId);
    loadTimes.push(performance.now() - start);
    start = performance.now();
    computeAnalysis(input);
    computeTimes.push(performance.now() - start);
  }
  console.log(`  getChapterAnalysis alone (SQL + compute, no JSON/HTTP): median ${ms(median(serviceTimes))}`);
  console.log(`    of which queries + parsing: median ${ms(median(loadTimes))}; compute: median ${ms(median(computeTimes))}`);
  await app.close();
} finally {
  await database.close();
  if (process.env.KEEP !== '1') await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
}
