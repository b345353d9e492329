/**
 * Selections at volume (docs/product.md#selections, decision 156): 10,000 participants, 12 exercises, 5 categories.
 *   (a) GET /api/selection/{id}/board over loopback HTTP, gzip asked: time to first byte, to the last, and the size
 *       of the JSON raw and compressed;
 *   (b) computeCategory over the 5 categories in Node, median of 50 runs (the jury's browser does it at each move
 *       of a cut-off; the aim is < 50 ms), on the board of (a) or, without a server, a generated one;
 *   (c) POST /api/selection/{id}/freeze: a numbered version of 10,000 outcomes.
 * (a) and (c) create the PostgreSQL database olympe_bench_selection (dropped at the end; KEEP=1 keeps it).
 *
 *   npm run bench:selection                                   # all three
 *   SELECTION_PHASES=compute npm run bench:selection          # (b) alone, no database
 *   PUPILS=10000 EXERCISES=12 SCHOOLS=400 RUNS=50 BOARD_RUNS=10 FREEZE_RUNS=3 BENCH_SERVER_URL=postgres://…
 */
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { computeCategory, type Board, type BoardColumns, type CutoffSettings, type DecisionKind } from '@olympe/contract';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { seedSelectionBench } from './seed.js';

const env = process.env;
const PHASES = new Set((env.SELECTION_PHASES ?? 'board,compute,freeze').split(','));
const PUPILS = Number(env.PUPILS ?? 10_000);
const EXERCISES = Number(env.EXERCISES ?? 12);
const SCHOOLS = Number(env.SCHOOLS ?? 400);
const CATEGORIES = 5;
const RUNS = Number(env.RUNS ?? 50);
const BOARD_RUNS = Number(env.BOARD_RUNS ?? 10);
const FREEZE_RUNS = Number(env.FREEZE_RUNS ?? 3);
const SERVER_URL = env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BENCH_DB = 'olympe_bench_selection';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

/** A board as the server would send it: scores descending, one category per pupil and one in ten in two. */
function generatedBoard(): BoardColumns {
  let seed = 156;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const scores = Array.from({ length: PUPILS }, () => Math.round(random() * 84 * 2) / 2).sort((a, b) => b - a);
  const masks = scores.map((_, i) => (1 << (i % CATEGORIES)) | (i % 10 === 0 ? 1 << ((i + 1) % CATEGORIES) : 0));
  return { scores, masks, girls: scores.map(() => (random() < 0.48 ? 1 : 0)), schools: scores.map(() => Math.floor(random() * SCHOOLS)) };
}

/** (b): every category's list with quotas and 20 decisions, as a freeze computes them; the median of RUNS. */
function measureCompute(board: BoardColumns): void {
  const settings: CutoffSettings[] = Array.from({ length: CATEGORIES }, (_, c) => {
    const members = board.scores.filter((_, i) => (board.masks[i]! & (1 << c)) !== 0);
    return { cutoff: members[Math.floor(members.length / 10)] ?? null, atCutoff: 'include', minGirls: 100, maxPerSchool: 3 };
  });
  const decisions = new Map<number, DecisionKind>(Array.from({ length: 20 }, (_, k) => [k * 97, k % 2 ? 'include' : 'exclude']));
  const all = () => settings.map((s, c) => computeCategory(board, c, s, decisions).count);
  for (let i = 0; i < 5; i++) all(); // warm-up: the JIT's first runs are not the jury's
  const times: number[] = [];
  let counts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    counts = all();
    times.push(performance.now() - start);
  }
  const one = performance.now();
  computeCategory(board, 0, settings[0]!, decisions);
  console.log(
    `(b) computeCategory × ${CATEGORIES} categories over ${board.scores.length} pupils: median ${ms(median(times))}, ` +
      `min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))} (${RUNS} runs); one category ${ms(performance.now() - one)}; ` +
      `selected per category ${counts.join(', ')}`,
  );
}

/** One GET with gzip asked: first byte, last byte, compressed and raw sizes, and the parsed board. */
function timedGet(url: string, token: string): Promise<{ firstByte: number; full: number; gzip: number; raw: number; body: string }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } }, (res) => {
      let firstByte = 0;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        firstByte ||= performance.now() - start;
        chunks.push(chunk);
      });
      res.on('end', () => {
        const full = performance.now() - start;
        const bytes = Buffer.concat(chunks);
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
        if (res.statusCode !== 200) return reject(new Error(`${res.statusCode} ${body.slice(0, 300)}`));
        resolve({ firstByte, full, gzip: bytes.length, raw: Buffer.byteLength(body), body });
      });
    });
    req.on('error', reject);
  });
}

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** (a) and (c), then (b) on the board the server sent. */
async function measureServer(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${BENCH_DB}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${BENCH_DB}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-selection-')),
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database, logger: false });
  try {
    await database.migrate();
    const t0 = performance.now();
    const bench = await seedSelectionBench(database.db, { pupils: PUPILS, exercises: EXERCISES, schools: SCHOOLS });
    await database.db.execute(sql`VACUUM ANALYZE`);
    console.log(
      `Seed: ${PUPILS} pupils × ${EXERCISES} exercises, ${SCHOOLS} schools, ${CATEGORIES} categories, ${ms(performance.now() - t0)}`,
    );
    const load = os.loadavg().map((x) => x.toFixed(1));
    console.log(`Load average at start: ${load.join(' ')} (${os.cpus().length} CPUs)`);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/selection/${bench.selectionId}`;
    const token = await app.deps.signer.sign({ userId: bench.adminId, tokenVersion: 0 });
    if (PHASES.has('board')) {
      const runs = [];
      for (let i = 0; i < BOARD_RUNS; i++) runs.push(await timedGet(`${base}/board`, token));
      const [first] = runs;
      console.log(
        `(a) GET board: first call ${ms(first!.firstByte)} to the first byte, ${ms(first!.full)} in full; ` +
          `median of ${BOARD_RUNS}: ${ms(median(runs.map((r) => r.firstByte)))} / ${ms(median(runs.map((r) => r.full)))}; ` +
          `JSON ${kib(first!.raw)} raw, ${kib(first!.gzip)} gzip`,
      );
      if (PHASES.has('compute')) measureCompute(JSON.parse(first!.body) as Board);
    } else if (PHASES.has('compute')) measureCompute(generatedBoard());
    if (PHASES.has('freeze')) await measureFreeze(base, token);
  } finally {
    await app.close();
    await database.close();
    if (!env.KEEP) await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  }
}

/** (c): each freeze writes a version of every participant's outcome; from the second on, with a reason. */
async function measureFreeze(base: string, token: string): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < FREEZE_RUNS; i++) {
    const start = performance.now();
    const res = await fetch(`${base}/freeze`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: i === 0 ? '' : `Bench, version ${i + 1}` }),
    });
    const text = await res.text();
    times.push(performance.now() - start);
    if (!res.ok) throw new Error(`${res.status} ${text.slice(0, 300)}`);
  }
  console.log(`(c) POST freeze (${PUPILS} outcomes): first ${ms(times[0]!)}, median of ${FREEZE_RUNS} ${ms(median(times))}`);
}

if (PHASES.has('board') || PHASES.has('freeze')) await measureServer();
else if (PHASES.has('compute')) measureCompute(generatedBoard());
