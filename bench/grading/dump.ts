/**
 * Checks and times GET /answer/table on the database a `KEEP=1` run of measure.ts left behind
 * (olympe_bench_grading), so that two versions of the code can be compared on the same data:
 *
 *   KEEP=1 node --import tsx bench/grading/measure.ts                  # once: seed and keep
 *   OUT=/tmp/table-before.json node --import tsx bench/grading/dump.ts  # old code: write the body
 *   REF=/tmp/table-before.json node --import tsx bench/grading/dump.ts  # new code: compare and time
 *
 * Runs `VACUUM ANALYZE answers` first (measure.ts's last steps grade copies). The comparison checks
 * the bytes, then the parsed bodies including the key order of `users`. RUNS=15 by default.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { MEMBERS_GROUP_ID } from '../../server/src/db/schema.js';
import { getGradingTable } from '../../server/src/grading/table.js';
import { BENCH_VIEWER, benchUrl } from './db.js';

const RUNS = Number(process.env.RUNS ?? 15);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

const database = await openDatabase({ databaseUrl: benchUrl() });
try {
  const one = async <T>(query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows[0];
  const { id: chapterId } = await one<{ id: string }>(
    sql`SELECT id FROM chapters WHERE title LIKE 'Bench correction %' ORDER BY created_at DESC LIMIT 1`,
  );
  const { user_id: memberId } = await one<{ user_id: string }>(
    sql`SELECT user_id FROM group_members WHERE group_id = ${MEMBERS_GROUP_ID}::uuid LIMIT 1`,
  );
  await database.db.execute(sql`VACUUM ANALYZE answers`);
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-grading-')),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database, logger: false });
  const headers = { authorization: `Bearer ${await app.deps.signer.sign({ userId: memberId, tokenVersion: 0 })}` };
  const url = `/api/answer/table/${chapterId}`;

  let body = '';
  const times: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    const res = await app.inject({ method: 'GET', url, headers });
    if (i > 0) times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
    if (i === 0) body = res.body;
    if (i === 0) console.log(`content-type: ${res.headers['content-type']}, ${Buffer.byteLength(body)} bytes`);
  }
  const service: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await getGradingTable(database.db, BENCH_VIEWER, chapterId);
    service.push(performance.now() - start);
  }
  console.log(`GET ${url}: median ${ms(median(times))}, min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))} (${RUNS} runs)`);
  console.log(`getGradingTable alone: median ${ms(median(service))}, min ${ms(Math.min(...service))}`);

  if (process.env.OUT) writeFileSync(process.env.OUT, body);
  if (process.env.REF) {
    const ref = readFileSync(process.env.REF, 'utf8');
    const a = JSON.parse(ref);
    const b = JSON.parse(body);
    const sameOrder = JSON.stringify(Object.keys(a.users)) === JSON.stringify(Object.keys(b.users));
    console.log(`byte-identical: ${ref === body}; deep-equal: ${isDeepStrictEqual(a, b)}; same users key order: ${sameOrder}`);
    if (!isDeepStrictEqual(a, b) || !sameOrder) process.exitCode = 1;
  }
  await app.close();
} finally {
  await database.close();
}
