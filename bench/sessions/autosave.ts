/**
 * Decision 12: N simulated pupils (default 2,000) start the same timed chapter within
 * 60 s; each makes the chapter page's calls, then autosaves 20 times. Real PostgreSQL, real HTTP
 * (the app listens on a free port in this process). Reports throughput, latencies and errors, then
 * checks in the database that every acknowledged save is stored and that the current answer of
 * every (pupil, exercise) is the last acknowledged one.
 *
 *   npm run bench                      # or: npm run bench -- autosave
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres  (server; the bench creates and drops olympe_bench)
 *   BENCH_PUPILS=2000 BENCH_ARRIVAL_S=60 BENCH_SAVES=20 BENCH_SAVE_INTERVAL_MS=2000 BENCH_SOCKETS=512
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { openDatabase, type Database } from '../../server/src/db/client.js';
import * as schema from '../../server/src/db/schema.js';
import { accessGroups, chapters, exercises, institutions, statementVersions, users } from '../../server/src/db/schema.js';

const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'olympe_bench';
const PUPILS = Number(env.BENCH_PUPILS ?? 2000);
const ARRIVAL_MS = Number(env.BENCH_ARRIVAL_S ?? 60) * 1000;
const SAVES = Number(env.BENCH_SAVES ?? 20);
const SAVE_INTERVAL_MS = Number(env.BENCH_SAVE_INTERVAL_MS ?? 2000);
const SOCKETS = Number(env.BENCH_SOCKETS ?? 512);
const EXERCISES = 5;
/** After this, pupils send nothing more; requests in flight get REQUEST_TIMEOUT_MS to finish (run < 3 min). */
const HARD_LIMIT_MS = Number(env.BENCH_LIMIT_S ?? 140) * 1000;
const REQUEST_TIMEOUT_MS = 20_000;

interface Sample {
  kind: string;
  ms: number;
  status: number;
  /** Completion time since the run started, ms. */
  at: number;
}
interface Ack {
  userId: string;
  exerciseId: string;
  seq: number;
  answer: string;
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function admin(query: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * The app's database with a pool of BENCH_POOL connections (default: the app's own openDatabase,
 * 10 connections), to measure whether the pool size limits save throughput.
 */
async function openBenchDatabase(url: string): Promise<Database> {
  const size = env.BENCH_POOL ? Number(env.BENCH_POOL) : undefined;
  if (!size) return openDatabase({ databaseUrl: url });
  const base = await openDatabase({ databaseUrl: url });
  await base.close();
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as unknown as Database['db'];
  return {
    db,
    kind: 'postgres',
    migrate: () => migrate(db, { migrationsFolder: path.resolve(import.meta.dirname, '../../server/src/db/migrations') }),
    close: () => pool.end(),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;

export async function runAutosaveBench(): Promise<void> {
  console.log(
    `Machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`Autosave bench: ${PUPILS} pupils arriving over ${ARRIVAL_MS / 1000} s, ${SAVES} saves each every ~${SAVE_INTERVAL_MS} ms`);
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-autosave-'));
  const database = await openBenchDatabase(withDatabase(SERVER_URL, DB_NAME));
  let server: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await database.migrate();
    const { db } = database;
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'bench-secret-bench-secret-bench-secret', LOG_LEVEL: 'silent' });
    server = await buildApp({ config, database, logger: false });

    // Seed: one school, N pupils with complete profiles, one timed chapter of 5 numeric exercises.
    const seedStart = performance.now();
    const [school] = await db.insert(institutions).values({ name: 'Collège du banc d’essai' }).returning();
    const pupilIds: string[] = [];
    for (let i = 0; i < PUPILS; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, PUPILS - i) }, (_, k) => ({
        email: `eleve${i + k}@bench.fr`,
        firstName: 'Élève',
        lastName: `N${i + k}`,
        gender: (i + k) % 2 ? 'female' : 'male',
        birthDate: '2010-01-01',
        grade: '3eme',
        defaultChoice: 'local',
        emailParent: 'parent@bench.fr',
        institutionId: school.id,
      }));
      const inserted = await db.insert(users).values(rows).returning({ id: users.id });
      pupilIds.push(...inserted.map((r) => r.id));
    }
    const [chapter] = await db.insert(chapters).values({ title: 'Coupe — banc d’essai', headerStudents: 'Bonne chance.' }).returning();
    await db
      .insert(accessGroups)
      .values({ chapterId: chapter.id, position: 0, timeDuration: 60, accessStart: new Date(Date.now() - 60_000) });
    const exerciseIds = (
      await db
        .insert(exercises)
        .values(
          Array.from({ length: EXERCISES }, (_, k) => ({
            chapterId: chapter.id,
            position: k,
            title: `Exercice ${k + 1}`,
            answerFormat: 'numeric',
          })),
        )
        .returning({ id: exercises.id })
    ).map((r) => r.id);
    await db
      .insert(statementVersions)
      .values(
        exerciseIds.flatMap((exerciseId) =>
          [0, 1].map((position) => ({ exerciseId, position, content: `Calculez ${position}.`, answer: '42' })),
        ),
      );
    // Tokens are signed directly: login (argon2, ~27 ms each) is not what this bench measures.
    const tokens = await Promise.all(pupilIds.map((userId) => server!.deps.signer.sign({ userId, tokenVersion: 0 })));
    console.log(`Seeded ${PUPILS} pupils in ${Math.round(performance.now() - seedStart)} ms`);

    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: SOCKETS });

    const samples: Sample[] = [];
    let runStart = performance.now();
    const acks: Ack[] = [];
    const errors = new Map<string, number>();
    const countError = (key: string) => errors.set(key, (errors.get(key) ?? 0) + 1);

    function call(kind: string, method: string, url: string, token: string, body?: unknown): Promise<{ status: number; json: any }> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const started = performance.now();
      return new Promise((resolve) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method,
            path: url,
            agent,
            headers: {
              authorization: `Bearer ${token}`,
              ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const ms = performance.now() - started;
              const status = res.statusCode ?? 0;
              samples.push({ kind, ms, status, at: performance.now() - runStart });
              if (status >= 400) countError(`${kind} ${status}`);
              let json: any;
              try {
                json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              } catch {
                json = undefined;
              }
              resolve({ status, json });
            });
          },
        );
        req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
        req.on('error', (err) => {
          samples.push({ kind, ms: performance.now() - started, status: 0, at: performance.now() - runStart });
          countError(`${kind} ${err.message}`);
          resolve({ status: 0, json: undefined });
        });
        if (payload) req.write(payload);
        req.end();
      });
    }

    const base = `/api`;
    let stopping = false;
    let finishedPupils = 0;
    async function pupil(i: number) {
      if (stopping) return;
      const token = tokens[i];
      const userId = pupilIds[i];
      // The chapter page's calls (docs/product.md#spec-4): state, start, state again after the reload, page, answers.
      await call('GET /chapter/start', 'GET', `${base}/chapter/start/${chapter.id}`, token);
      await call('POST /chapter/start', 'POST', `${base}/chapter/start/${chapter.id}`, token);
      await Promise.all([
        call('GET /chapter/start', 'GET', `${base}/chapter/start/${chapter.id}`, token),
        call('GET /exos/chapter', 'GET', `${base}/exos/chapter/${chapter.id}`, token),
        call('GET /answer/chapter', 'GET', `${base}/answer/chapter/${chapter.id}`, token),
      ]);
      const seq0 = Date.now();
      for (let k = 0; k < SAVES; k++) {
        await sleep(SAVE_INTERVAL_MS * (0.5 + Math.random()));
        if (stopping) return;
        const exerciseId = exerciseIds[k % EXERCISES];
        const answer = `${i}.${k}`;
        const seq = seq0 + k;
        const res = await call('save', 'POST', `${base}/answer`, token, { exerciseId, answer, seq });
        if (res.status === 200) acks.push({ userId, exerciseId, seq, answer });
      }
      finishedPupils += 1;
    }

    runStart = performance.now();
    const deadline = Date.now() + HARD_LIMIT_MS;
    const runs = pupilIds.map((_, i) => sleep((i * ARRIVAL_MS) / PUPILS).then(() => pupil(i)));
    const all = Promise.all(runs);
    const finished = await Promise.race([all.then(() => true), sleep(deadline - Date.now()).then(() => false)]);
    if (!finished) {
      // Stop sending, then let requests in flight end so every acknowledgement is counted.
      stopping = true;
      await all;
      console.log(`WARNING: time limit reached: ${PUPILS - finishedPupils} pupils did not send all their saves`);
    }
    const wallMs = performance.now() - runStart;
    agent.destroy();

    // Report.
    const saves = samples.filter((s) => s.kind === 'save');
    const page = samples.filter((s) => s.kind !== 'save');
    const lat = (xs: Sample[]) => xs.map((s) => s.ms).sort((a, b) => a - b);
    const saveLat = lat(saves);
    const pageLat = lat(page);
    const saveTimes = saves.length;
    const fmt = (n: number) => n.toFixed(1);
    console.log(`\nRun: ${fmt(wallMs / 1000)} s wall, ${samples.length} requests (${fmt(samples.length / (wallMs / 1000))} req/s overall)`);
    console.log(`Saves: ${saveTimes} sent, ${acks.length} acknowledged, ${fmt(saveTimes / (wallMs / 1000))} saves/s average`);
    console.log(
      `Save latency ms: p50 ${fmt(pct(saveLat, 50))}, p95 ${fmt(pct(saveLat, 95))}, p99 ${fmt(pct(saveLat, 99))}, max ${fmt(saveLat.at(-1) ?? NaN)}`,
    );
    console.log(
      `Page-call latency ms: p50 ${fmt(pct(pageLat, 50))}, p95 ${fmt(pct(pageLat, 95))}, p99 ${fmt(pct(pageLat, 99))}, max ${fmt(pageLat.at(-1) ?? NaN)}`,
    );
    for (const kind of [...new Set(page.map((s) => s.kind))]) {
      const l = lat(page.filter((s) => s.kind === kind));
      console.log(`  ${kind.padEnd(20)} ${String(l.length).padStart(6)} calls: p50 ${fmt(pct(l, 50))}, p99 ${fmt(pct(l, 99))}`);
    }
    // Peak: the busiest second of acknowledged requests.
    const perSecond = new Map<number, number>();
    for (const s of samples) perSecond.set(Math.floor(s.at / 1000), (perSecond.get(Math.floor(s.at / 1000)) ?? 0) + 1);
    const savesPerSecond = new Map<number, number>();
    for (const s of saves) savesPerSecond.set(Math.floor(s.at / 1000), (savesPerSecond.get(Math.floor(s.at / 1000)) ?? 0) + 1);
    console.log(`Busiest second: ${Math.max(0, ...perSecond.values())} requests, ${Math.max(0, ...savesPerSecond.values())} saves`);
    console.log(`Errors: ${errors.size === 0 ? 'none' : [...errors].map(([k, v]) => `${k} ×${v}`).join(', ')}`);

    // Verification in the database.
    const stored = await db.execute<{ user_id: string; exercise_id: string; seq: string; answer: string }>(
      sql`SELECT a.user_id, a.exercise_id, a.seq::text AS seq, a.answer FROM answers a JOIN exercises e ON e.id = a.exercise_id WHERE e.chapter_id = ${chapter.id}`,
    );
    const rows = (stored as unknown as { rows: Array<{ user_id: string; exercise_id: string; seq: string; answer: string }> }).rows;
    const keys = new Set(rows.map((r) => `${r.user_id}|${r.exercise_id}|${r.seq}|${r.answer}`));
    const missing = acks.filter((a) => !keys.has(`${a.userId}|${a.exerciseId}|${a.seq}|${a.answer}`));
    const lastAck = new Map<string, Ack>();
    for (const a of acks) {
      const key = `${a.userId}|${a.exerciseId}`;
      if ((lastAck.get(key)?.seq ?? -1) < a.seq) lastAck.set(key, a);
    }
    const current = await db.execute<{ user_id: string; exercise_id: string; answer: string }>(sql`
      SELECT DISTINCT ON (a.user_id, a.exercise_id) a.user_id, a.exercise_id, a.answer
      FROM answers a JOIN exercises e ON e.id = a.exercise_id WHERE e.chapter_id = ${chapter.id}
      ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC`);
    const currentRows = (current as unknown as { rows: Array<{ user_id: string; exercise_id: string; answer: string }> }).rows;
    const currentMap = new Map(currentRows.map((r) => [`${r.user_id}|${r.exercise_id}`, r.answer]));
    const wrongCurrent = [...lastAck].filter(([key, a]) => currentMap.get(key) !== a.answer);
    console.log(
      `Database: ${rows.length} answer rows; acknowledged saves missing: ${missing.length}; ` +
        `current answer differs from the last acknowledged save: ${wrongCurrent.length} of ${lastAck.size}`,
    );
    console.log(
      `Pupils who sent all their saves: ${finishedPupils} of ${PUPILS}; load average now ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    if (missing.length > 0 || wrongCurrent.length > 0 || !finished) process.exitCode = 1;
  } finally {
    await server?.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!env.BENCH_KEEP) await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}
