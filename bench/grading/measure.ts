/**
 * Decision 14: 10,000 pupils × 12 exercises on real PostgreSQL. Creates the database
 * olympe_bench_grading (dropped at the end), seeds it, then times the grading routes through
 * app.inject (no network) and reports body sizes.
 *
 *   node --import tsx bench/grading/measure.ts          # PUPILS=10000 RUNS=10 by default
 *   PAGED=1 node --import tsx bench/grading/measure.ts  # decision 83: pages against the whole table, interleaved
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { BENCH_VIEWER, benchUrl, createBenchDb, dropBenchDb } from './db.js';
import { seedGradingBench } from './seed.js';
import { getGradingTable } from '../../server/src/grading/table.js';

const PUPILS = Number(process.env.PUPILS ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 10);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(0)} ms`;

await createBenchDb();
const database = await openDatabase({ databaseUrl: benchUrl() });
try {
  await database.migrate();
  const t0 = performance.now();
  const bench = await seedGradingBench(database.db, PUPILS);
  const counts = (await database.db.execute(sql`SELECT count(*)::int AS n FROM answers`)) as unknown as { rows: Array<{ n: number }> };
  // As autovacuum would after a day of saves: the planner needs statistics.
  await database.db.execute(sql`ANALYZE`);
  console.log(`Seed: ${PUPILS} pupils × 12 exercises, ${counts.rows[0].n} answer rows, ${ms(performance.now() - t0)}`);
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-grading-')),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database, logger: false });
  const member = { authorization: `Bearer ${await app.deps.signer.sign({ userId: bench.memberId, tokenVersion: 0 })}` };
  const admin = { authorization: `Bearer ${await app.deps.signer.sign({ userId: bench.adminId, tokenVersion: 0 })}` };

  async function time(label: string, method: 'GET' | 'POST', url: string, headers: Record<string, string>, runs = RUNS, payload?: object) {
    const times: number[] = [];
    let body = '';
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const res = await app.inject({ method, url, headers, payload: payload as Record<string, unknown> | undefined });
      times.push(performance.now() - start);
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      body = res.body;
    }
    const size = Buffer.byteLength(body);
    const gz = gzipSync(body).length;
    console.log(
      `${label.padEnd(44)} first ${ms(times[0]).padStart(7)}  median ${ms(median(times.slice(1).length ? times.slice(1) : times)).padStart(7)}  max ${ms(Math.max(...times)).padStart(7)}  body ${(size / 1024).toFixed(0)} KiB (gzip ${(gz / 1024).toFixed(0)} KiB)`,
    );
    return body;
  }

  if (process.env.PAGED) {
    // Decision 83: the paged route against the whole table, each measured once per round in turn so
    // the machine's load hits them alike; the middle page starts after the pupil halfway in the order.
    await database.db.execute(sql`VACUUM ANALYZE answers`);
    const base = `/api/answer/table/${bench.chapterId}`;
    const order = Object.keys(JSON.parse((await app.inject({ method: 'GET', url: base, headers: member })).body).users);
    const middle = order[Math.floor(order.length / 2)];
    const cases: Array<[string, string]> = [
      ['whole table', base],
      ['header, limit=0', `${base}?limit=0`],
      ['first page, limit=200', `${base}?limit=200`],
      ['middle page, limit=200', `${base}?limit=200&after=${middle}`],
      ['middle page, limit=500', `${base}?limit=500&after=${middle}`],
      ['header, limit=0, q=lefevre 12', `${base}?limit=0&q=lefevre%2012`],
      ['first page, limit=200, q=lefevre 12', `${base}?limit=200&q=lefevre%2012`],
    ];
    const times = new Map<string, number[]>(cases.map(([label]) => [label, []]));
    const sizes = new Map<string, number>();
    for (let round = 0; round <= RUNS; round++) {
      for (const [label, url] of cases) {
        const start = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: member });
        const elapsed = performance.now() - start;
        if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        // Round 0 warms each shape up (plans, caches) and is not counted.
        if (round > 0) times.get(label)!.push(elapsed);
        sizes.set(label, Buffer.byteLength(res.body));
      }
    }
    for (const [label] of cases) {
      const xs = times.get(label)!;
      console.log(
        `${label.padEnd(44)} median ${ms(median(xs)).padStart(7)}  min ${ms(Math.min(...xs)).padStart(7)}  max ${ms(Math.max(...xs)).padStart(7)}  body ${(sizes.get(label)! / 1024).toFixed(0)} KiB`,
      );
    }
  } else {
    await time(`GET /answer/table, no vacuum yet`, 'GET', `/api/answer/table/${bench.chapterId}`, member);
    // What autovacuum does after the day's saves: the covering index then answers alone.
    await database.db.execute(sql`VACUUM ANALYZE answers`);
    const table = JSON.parse(await time(`GET /answer/table (${PUPILS} pupils)`, 'GET', `/api/answer/table/${bench.chapterId}`, member));
    console.log(`  rows: ${Object.keys(table.users).length}, cells per row: ${table.exercises.length}`);
    // The service alone (SQL + building the rows), without JSON serialisation and HTTP.
    const serviceTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await getGradingTable(database.db, BENCH_VIEWER, bench.chapterId);
      serviceTimes.push(performance.now() - t);
    }
    console.log(`  getGradingTable alone (SQL + rows): median ${ms(median(serviceTimes))}`);

    // A morning of grading: 5,000 copies graded (grade is in answers_current_idx, so each save is a new
    // row version and clears its page's all-visible mark). The table is timed at once, then again once
    // autovacuum has been through answers (migration 0014: after ~4,000 changes; the defaults wait for
    // ~29,000). DEFAULT_AUTOVACUUM=1 resets the table to the defaults, for the comparison.
    if (process.env.DEFAULT_AUTOVACUUM)
      await database.db.execute(
        sql`ALTER TABLE answers RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold, autovacuum_vacuum_insert_scale_factor, autovacuum_vacuum_insert_threshold, autovacuum_analyze_scale_factor)`,
      );
    await database.db.execute(sql`
      UPDATE answers SET grade = '3', grader_id = ${bench.memberId}::uuid, grade_timestamp = now()
      WHERE id IN (SELECT id FROM answers WHERE grade IS NULL AND withdrawn_at IS NULL AND seq = 2 ORDER BY md5(id::text) LIMIT 5000)`);
    const vacuumed = async () =>
      (
        (await database.db.execute(
          sql`SELECT coalesce(last_autovacuum, 'epoch') AS at FROM pg_stat_user_tables WHERE relname = 'answers'`,
        )) as unknown as { rows: Array<{ at: string }> }
      ).rows[0].at;
    const before = String(await vacuumed());
    await time('GET /answer/table, 5,000 grades later', 'GET', `/api/answer/table/${bench.chapterId}`, member);
    const waitStart = performance.now();
    // A server run with autovacuum off (a test server, say) would only make us wait.
    const daemon = ((await database.db.execute(sql`SHOW autovacuum`)) as unknown as { rows: Array<{ autovacuum: string }> }).rows[0]
      .autovacuum;
    const waitMs = daemon === 'on' ? Number(process.env.WAIT_S ?? 180) * 1000 : 0;
    if (daemon !== 'on') console.log('  autovacuum is off on this server: bench/grading/visibility.ts compares the two states');
    while (String(await vacuumed()) === before && performance.now() - waitStart < waitMs) await new Promise((r) => setTimeout(r, 2000));
    const autovacuumed = String(await vacuumed()) !== before;
    console.log(`  autovacuum of answers ${autovacuumed ? `after ${ms(performance.now() - waitStart)}` : `not run within ${ms(waitMs)}`}`);
    await time(
      `GET /answer/table, ${autovacuumed ? 'after autovacuum' : 'still not vacuumed'}`,
      'GET',
      `/api/answer/table/${bench.chapterId}`,
      member,
    );

    const pdfExercise = bench.exerciseIds[11];
    await time('GET /answer/select (next copy, PDF exercise)', 'GET', `/api/answer/select/${pdfExercise}`, member);
    await time('GET /answer/overview (graded copies)', 'GET', `/api/answer/overview/${bench.chapterId}`, member, 3);
    const anyUser = Object.keys(table.users)[0];
    const history = JSON.parse(await time('GET /answer/history', 'GET', `/api/answer/history/${anyUser}/${pdfExercise}`, member));
    let version: string | null = history.result.grade_timestamp;
    const saves: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/answer/grade/',
        headers: member,
        payload: {
          answerId: history.result.answerId,
          grade: String(i % 5),
          grade_comment: `Essai ${i}`,
          hidden: false,
          expectedGradeTimestamp: version,
        },
      });
      saves.push(performance.now() - start);
      version = JSON.parse(res.body).grade_timestamp;
    }
    console.log(`${'POST /answer/grade (with audit)'.padEnd(44)} median ${ms(median(saves))}  max ${ms(Math.max(...saves))}`);
    await time('POST /answer/auto (first run)', 'POST', `/api/answer/auto/${bench.chapterId}`, admin, 1);
    await time('POST /answer/auto (again, nothing to change)', 'POST', `/api/answer/auto/${bench.chapterId}`, admin, 1);
  }
  await app.close();
} finally {
  await database.close();
  if (!process.env.KEEP) await dropBenchDb();
}
