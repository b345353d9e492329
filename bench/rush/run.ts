/**
 * The qualities of docs/product.md#design-4, part "The rush" (bench/rush/README.md). Against real PostgreSQL, with the
 * server in its own process (server/src/main.ts, as in production) and this process as the load
 * generator over loopback HTTP (undici keep-alive pool):
 *   1. limits: bare Fastify hello world (autocannon) and the raw save upsert (pgbench);
 *   2. storm: 300 logins in 10 s while already-logged-in pupils autosave;
 *   3. rush: 3,000 pupils start the same timed chapter within 60 s, load the chapter's calls,
 *      autosave 20 answers each over 10 minutes of simulated time (compressed) with focus/blur;
 *   4. saturated: closed-loop saves, as fast as the server answers;
 *   5. check: every acknowledged save is in the database, and the answers' counters (decision 116) equal the answers.
 * Reports requests/s, p50/p95/p99 per route, errors, CPU of node / PostgreSQL / the rest, the
 * load average, and writes the whole result as JSON.
 *
 *   npm run bench:rush
 *   RUSH_DB_HOST=socket|tcp (default socket)  RUSH_PHASES=limits,storm,rush,saturated
 *   RUSH_PUPILS=3000 RUSH_ARRIVAL_S=60 RUSH_SAVES=20 RUSH_COMPRESSION=10 RUSH_SOCKETS=256
 *   RUSH_SAT_S=20 RUSH_SAT_CONCURRENCY=128 RUSH_CPU_PROF=<dir> RUSH_LOG_LEVEL=info RUSH_PORT=3271
 *   RUSH_UV_THREADPOOL_SIZE (server's libuv pool) RUSH_PG_OPTIONS ('-c plan_cache_mode=…') RUSH_KEEP=1
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Pool } from 'undici';
import { hashPassword } from '../../server/src/auth/service.js';
import { createTokenSigner } from '../../server/src/auth/tokens.js';
import { openDatabase } from '../../server/src/db/client.js';
import { accessGroups, chapters, exercises, institutions, statementVersions, users } from '../../server/src/db/schema.js';
import { CpuMeter, type CpuReport } from './cpu.js';

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, '../..');
const DB_NAME = 'olympe_rush';
const ADMIN_URL = env.RUSH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_HOST = env.RUSH_DB_HOST ?? 'socket';
const APP_DB_URL =
  // The socket form keeps a host name so that the server's URL check accepts it; pg takes `host` from the query.
  (DB_HOST === 'tcp'
    ? `postgres://postgres@127.0.0.1:5432/${DB_NAME}`
    : `postgres://postgres@localhost/${DB_NAME}?host=/var/run/postgresql`) +
  // e.g. RUSH_PG_OPTIONS='-c plan_cache_mode=force_custom_plan'
  (env.RUSH_PG_OPTIONS ? `${DB_HOST === 'tcp' ? '?' : '&'}options=${encodeURIComponent(env.RUSH_PG_OPTIONS)}` : '');
const PHASES = new Set((env.RUSH_PHASES ?? 'limits,storm,rush,saturated').split(','));
const PUPILS = Number(env.RUSH_PUPILS ?? 3000);
const ARRIVAL_MS = Number(env.RUSH_ARRIVAL_S ?? 60) * 1000;
const SAVES = Number(env.RUSH_SAVES ?? 20);
/** 10 simulated minutes of autosave take 600 s / COMPRESSION. */
const COMPRESSION = Number(env.RUSH_COMPRESSION ?? 10);
const SOCKETS = Number(env.RUSH_SOCKETS ?? 256);
const STORM_LOGINS = Number(env.RUSH_STORM_LOGINS ?? 300);
const STORM_S = Number(env.RUSH_STORM_S ?? 10);
const STORM_SAVERS = Number(env.RUSH_STORM_SAVERS ?? 300);
const SAT_S = Number(env.RUSH_SAT_S ?? 20);
const SAT_CONCURRENCY = Number(env.RUSH_SAT_CONCURRENCY ?? 128);
/** raw: saturate.mjs in its own process (default); undici: this process's pool, as the other phases. */
const SAT_DRIVER = env.RUSH_SAT_DRIVER ?? 'raw';
const PORT = Number(env.RUSH_PORT ?? 3271);
const HELLO_PORT = PORT + 1;
const SECRET = 'rush-secret-rush-secret-rush-secret';
const PASSWORD = 'Rush#2026-mot-de-passe';
const EXERCISES = 5;
const REQUEST_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const load = () => os.loadavg().map((l) => round(l));

async function admin(query: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- measurement

interface Sample {
  route: string;
  ms: number;
  status: number;
  /** Completion, ms since the phase started. */
  at: number;
}

class Recorder {
  samples: Sample[] = [];
  errors = new Map<string, number>();
  started = performance.now();
  add(route: string, ms: number, status: number, error?: string) {
    this.samples.push({ route, ms, status, at: performance.now() - this.started });
    if (error || status >= 400) {
      const key = `${route} ${error ?? status}`;
      this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
    }
  }
  report(cpu: CpuReport) {
    const seconds = (performance.now() - this.started) / 1000;
    const routes: Record<string, unknown> = {};
    const names = [...new Set(this.samples.map((s) => s.route))];
    for (const name of names) {
      const xs = this.samples.filter((s) => s.route === name);
      const lat = xs.map((s) => s.ms).sort((a, b) => a - b);
      const q = (p: number) => round(lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN);
      routes[name] = {
        count: xs.length,
        perSecond: round(xs.length / seconds),
        p50: q(50),
        p95: q(95),
        p99: q(99),
        max: round(lat.at(-1) ?? NaN),
        status5xx: xs.filter((s) => s.status >= 500).length,
        failed: xs.filter((s) => s.status === 0 || s.status >= 400).length,
      };
    }
    // Per 10-second window: requests/s and the save latency, to see when a tail happens.
    const timeline: Array<Record<string, number>> = [];
    for (let from = 0; from < seconds * 1000; from += 10_000) {
      const xs = this.samples.filter((s) => s.at >= from && s.at < from + 10_000);
      const saves = xs
        .filter((s) => s.route === 'POST /answer')
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      const q = (p: number) => round(saves[Math.min(saves.length - 1, Math.floor((p / 100) * saves.length))] ?? NaN, 0);
      timeline.push({
        fromS: from / 1000,
        reqPerS: round(xs.length / 10, 0),
        savesPerS: round(saves.length / 10, 0),
        saveP50: q(50),
        saveP99: q(99),
      });
    }
    return {
      seconds: round(seconds),
      requests: this.samples.length,
      timeline,
      requestsPerSecond: round(this.samples.length / seconds),
      routes,
      errors: Object.fromEntries(this.errors),
      cpu,
    };
  }
}

let http: Pool;
let rec = new Recorder();

async function call(route: string, method: 'GET' | 'POST', url: string, token: string | null, body?: unknown) {
  const started = performance.now();
  try {
    const res = await http.request({
      method,
      path: url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
    const text = await res.body.text();
    rec.add(route, performance.now() - started, res.statusCode);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, json };
  } catch (err) {
    rec.add(route, performance.now() - started, 0, (err as Error).message.slice(0, 60));
    return { status: 0, json: undefined };
  }
}

// ---------------------------------------------------------------- processes

function startProcess(cmd: string, args: string[], extraEnv: Record<string, string>, name: string): ChildProcess {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[${name}] ${d}`));
  return child;
}

async function waitForHttp(port: number, pathName: string) {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${pathName}`);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error(`Le serveur sur le port ${port} ne répond pas.`);
}

async function stopProcess(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function autocannonBin(): string[] {
  if (env.RUSH_AUTOCANNON) return [env.RUSH_AUTOCANNON];
  const local = path.join(ROOT, 'node_modules/.bin/autocannon');
  if (existsSync(local)) return [local];
  return ['npx', '--yes', 'autocannon@9'];
}

function run(cmd: string[], meter?: CpuMeter): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    if (meter && child.pid) meter.clientPids.push(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end();
  });
}

// ---------------------------------------------------------------- main

export async function runRush() {
  console.log(`Machine: ${os.cpus().length} CPUs, load average ${load().join(' ')} (shared with other work: see the figures' load)`);
  console.log(`Server ↔ PostgreSQL over ${DB_HOST === 'tcp' ? 'loopback TCP' : 'the Unix socket'}; phases ${[...PHASES].join(', ')}`);
  // The machine's PostgreSQL may be restarting (other work's fault-injection tests): wait for it.
  for (let i = 0; ; i++) {
    try {
      await admin('SELECT 1');
      break;
    } catch (err) {
      if (i >= 60) throw err;
      await sleep(1000);
    }
  }
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-rush-'));
  const database = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:5432/${DB_NAME}` });
  let server: ChildProcess | undefined;
  let hello: ChildProcess | undefined;
  const result: Record<string, any> = {
    date: new Date().toISOString(),
    node: process.version,
    dbHost: DB_HOST,
    loadAtStart: load(),
    knobs: { PUPILS, ARRIVAL_MS, SAVES, COMPRESSION, SOCKETS, STORM_LOGINS, STORM_SAVERS, SAT_S, SAT_CONCURRENCY, SAT_DRIVER },
  };
  const acks: Array<{ userId: string; exerciseId: string; seq: number; answer: string }> = [];
  try {
    await database.migrate();
    const { db } = database;

    // ---------------- seed
    const seedStart = performance.now();
    const passwordHash = await hashPassword(PASSWORD);
    const [school] = await db.insert(institutions).values({ name: 'Collège de la ruée' }).returning();
    const total = PUPILS + STORM_SAVERS;
    const pupilIds: string[] = [];
    for (let i = 0; i < total; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, total - i) }, (_, k) => ({
        email: `eleve${i + k}@ruee.fr`,
        passwordHash,
        firstName: 'Élève',
        lastName: `N${i + k}`,
        gender: (i + k) % 2 ? 'female' : 'male',
        birthDate: '2010-01-01',
        grade: '3eme',
        defaultChoice: 'local',
        emailParent: 'parent@ruee.fr',
        institutionId: school.id,
      }));
      pupilIds.push(...(await db.insert(users).values(rows).returning({ id: users.id })).map((r) => r.id));
    }
    async function timedChapter(title: string) {
      const [chapter] = await db.insert(chapters).values({ title, headerStudents: 'Bonne chance.' }).returning();
      await db
        .insert(accessGroups)
        .values({ chapterId: chapter.id, position: 0, timeDuration: 60, accessStart: new Date(Date.now() - 60_000) });
      const ids = (
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
          ids.flatMap((exerciseId) =>
            [0, 1].map((position) => ({ exerciseId, position, content: `Calculez $${position} + 41$.`, answer: '42' })),
          ),
        );
      return { id: chapter.id, exerciseIds: ids };
    }
    const rush = await timedChapter('Coupe — la ruée');
    const warmup = await timedChapter('Entraînement — pendant les connexions');
    const signer = createTokenSigner(SECRET);
    // Pupils who do not log in during the storm get a token signed with the server's key (login is measured in the storm).
    const tokens = await Promise.all(pupilIds.map((userId) => signer.sign({ userId, tokenVersion: 0 })));
    // Statistics for the seeded tables only: an ANALYZE of the still empty `answers` and
    // `chapter_sessions` makes every pooled connection cache generic plans that scan them
    // sequentially until autovacuum analyses them again (README "A trap"); a fresh production
    // database has never been analysed and does not fall into it. RUSH_ANALYZE_ALL=1 shows the trap.
    await db.execute(
      env.RUSH_ANALYZE_ALL ? sql`ANALYZE` : sql`ANALYZE users, institutions, chapters, access_groups, exercises, statement_versions`,
    );
    console.log(`Seeded ${total} pupils and 2 chapters in ${Math.round(performance.now() - seedStart)} ms`);

    const meter = (pid?: number) =>
      new CpuMeter(() => {
        const p = pid ?? server?.pid;
        return p ? [p] : [];
      }, DB_NAME);

    // ---------------- limits
    if (PHASES.has('limits')) {
      hello = startProcess('node', ['bench/rush/hello.mjs'], { PORT: String(HELLO_PORT) }, 'hello');
      await waitForHttp(HELLO_PORT, '/');
      const m = meter(hello.pid);
      const ac = await run([...autocannonBin(), '-c', '100', '-d', '10', '--json', `http://127.0.0.1:${HELLO_PORT}/`], m);
      const helloCpu = m.stop();
      await stopProcess(hello);
      let helloRps = NaN;
      try {
        const j = JSON.parse(ac.stdout);
        helloRps = j.requests.average;
        result.hello = {
          requestsPerSecond: helloRps,
          requests: j.requests.total,
          p50: j.latency.p50,
          p99: j.latency.p99,
          errors: j.errors,
          non2xx: j.non2xx,
          cpu: helloCpu,
          cost: costOf(helloCpu, j.requests.total),
        };
      } catch {
        result.hello = { error: ac.stderr.slice(0, 500) };
      }
      console.log(
        `\nHello world (autocannon -c 100 -d 10): ${round(helloRps, 0)} req/s`,
        JSON.stringify(result.hello.cpu ?? {}),
        JSON.stringify(result.hello.cost ?? {}),
      );

      // The save's statement, as saveAnswer sends it, for one pupil and a random seq.
      const uid = `'${pupilIds[total - 1]}'::uuid`;
      const ex = `'${warmup.exerciseIds[0]}'::uuid`;
      const script = `\\set seq random(1, 1000000000000)
WITH ins AS (
  INSERT INTO answers (user_id, exercise_id, answer, file_id, seq, ip)
  SELECT ${uid}, ${ex}, '42'::text, NULL::uuid, :seq::bigint, '127.0.0.1'::text
  WHERE NOT EXISTS (SELECT 1 FROM answers WHERE user_id = ${uid} AND exercise_id = ${ex} AND seq = :seq::bigint)
  ON CONFLICT (user_id, exercise_id, seq) WHERE seq > 0 DO NOTHING
  RETURNING id
)
SELECT EXISTS (SELECT 1 FROM ins) AS inserted,
  EXISTS (SELECT 1 FROM answers WHERE user_id = ${uid} AND exercise_id = ${ex} AND seq > :seq::bigint AND withdrawn_at IS NULL) AS newer;
`;
      const scriptFile = path.join(dataDir, 'upsert.sql');
      writeFileSync(scriptFile, script);
      result.pgbench = {};
      for (const [label, host, mode] of [
        ['socket, prepared', '/var/run/postgresql', 'prepared'],
        ['tcp, simple', '127.0.0.1', 'simple'],
      ] as const) {
        const m2 = meter();
        const out = await run(
          ['pgbench', '-n', '-h', host, '-U', 'postgres', '-c', '16', '-j', '2', '-T', '10', '-M', mode, '-f', scriptFile, DB_NAME],
          m2,
        );
        const pgCpu = m2.stop();
        const tps = Number(/tps = ([\d.]+)/.exec(out.stdout)?.[1] ?? NaN);
        const done = Number(/actually processed: (\d+)/.exec(out.stdout)?.[1] ?? NaN);
        const latency = Number(/latency average = ([\d.]+)/.exec(out.stdout)?.[1] ?? NaN);
        result.pgbench[label] = {
          tps: round(tps, 0),
          transactions: done,
          latencyMs: latency,
          cpu: pgCpu,
          cost: costOf(pgCpu, done),
          error: out.code ? out.stderr.slice(0, 300) : undefined,
        };
        console.log(
          `pgbench upsert (${label}, 16 clients, 10 s): ${round(tps, 0)} tps`,
          JSON.stringify(pgCpu),
          JSON.stringify(result.pgbench[label].cost),
          out.code ? out.stderr.slice(0, 300) : '',
        );
      }
      await db.execute(sql`DELETE FROM answers WHERE user_id = ${pupilIds[total - 1]}::uuid`);
    }

    // ---------------- server
    const profDir = env.RUSH_CPU_PROF ? path.resolve(env.RUSH_CPU_PROF) : undefined;
    if (profDir) mkdirSync(profDir, { recursive: true });
    server = startProcess(
      'node',
      // RUSH_SERVER_ENTRY: another copy of the server, for experiments (default: the real one).
      [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), '--import', 'tsx', env.RUSH_SERVER_ENTRY ?? 'server/src/main.ts'],
      {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATABASE_URL: APP_DB_URL,
        JWT_SECRET: SECRET,
        DATA_DIR: dataDir,
        LOG_LEVEL: env.RUSH_LOG_LEVEL ?? 'info',
        NODE_ENV: 'production',
        // libuv's pool runs argon2 (logins): 4 threads by default.
        ...(env.RUSH_UV_THREADPOOL_SIZE ? { UV_THREADPOOL_SIZE: env.RUSH_UV_THREADPOOL_SIZE } : {}),
      },
      'server',
    );
    await waitForHttp(PORT, '/api/config');
    http = new Pool(`http://127.0.0.1:${PORT}`, { connections: SOCKETS, pipelining: 1, keepAliveTimeout: 60_000 });
    const save = async (i: number, exerciseId: string, seq: number, answer: string, route = 'POST /answer') => {
      const res = await call(route, 'POST', '/api/answer', tokens[i], { exerciseId, answer, seq });
      if (res.status === 200) acks.push({ userId: pupilIds[i], exerciseId, seq, answer });
      return res.status;
    };

    // ---------------- storm: logins while saves run
    if (PHASES.has('storm')) {
      const savers = Array.from({ length: STORM_SAVERS }, (_, k) => PUPILS + k);
      await Promise.all(savers.map((i) => call('warm', 'POST', `/api/chapter/start/${warmup.id}`, tokens[i])));
      rec = new Recorder();
      const m = meter();
      let stop = false;
      const saverLoops = savers.map(async (i, k) => {
        await sleep(Math.random() * 1000);
        for (let n = 0; !stop; n++) {
          await save(i, warmup.exerciseIds[n % EXERCISES], Date.now() * 10 + (n % 10), `${k}.${n}`);
          await sleep(500 + Math.random() * 1000);
        }
      });
      await sleep(1000);
      const logins = Array.from({ length: STORM_LOGINS }, async (_, k) => {
        await sleep((k * STORM_S * 1000) / STORM_LOGINS);
        const res = await call('POST /auth/login', 'POST', '/api/auth/login', null, { email: `eleve${k}@ruee.fr`, password: PASSWORD });
        if (res.status === 200 && typeof res.json?.token === 'string') tokens[k] = res.json.token;
      });
      await Promise.all(logins);
      await sleep(1000);
      stop = true;
      await Promise.all(saverLoops);
      result.storm = rec.report(m.stop());
      printPhase('Storm: logins while saves run', result.storm);
    }

    // ---------------- rush
    if (PHASES.has('rush')) {
      rec = new Recorder();
      const m = meter();
      const spacing = 600_000 / SAVES / COMPRESSION;
      let finished = 0;
      const pupil = async (i: number) => {
        const t = tokens[i];
        await call('GET /chapter/start', 'GET', `/api/chapter/start/${rush.id}`, t);
        await call('POST /chapter/start', 'POST', `/api/chapter/start/${rush.id}`, t);
        await Promise.all([
          call('GET /chapter/start', 'GET', `/api/chapter/start/${rush.id}`, t),
          call('GET /exos/chapter', 'GET', `/api/exos/chapter/${rush.id}`, t),
          call('GET /answer/chapter', 'GET', `/api/answer/chapter/${rush.id}`, t),
        ]);
        // Two blur/focus pairs at random saves (the pupil looks at another window).
        const away = new Set([Math.floor(Math.random() * SAVES), Math.floor(Math.random() * SAVES)]);
        const seq0 = Date.now() * 10;
        for (let k = 0; k < SAVES; k++) {
          await sleep(spacing * (0.5 + Math.random()));
          if (away.has(k)) {
            await call('POST /chapter/event', 'POST', `/api/chapter/event/${rush.id}`, t, { eventType: 'blur' });
            await sleep(200);
            await call('POST /chapter/event', 'POST', `/api/chapter/event/${rush.id}`, t, { eventType: 'focus' });
          }
          await save(i, rush.exerciseIds[k % EXERCISES], seq0 + k, `${i}.${k}`);
        }
        finished += 1;
      };
      await Promise.all(Array.from({ length: PUPILS }, (_, i) => sleep((i * ARRIVAL_MS) / PUPILS).then(() => pupil(i))));
      result.rush = { ...rec.report(m.stop()), pupilsFinished: finished };
      printPhase(`Rush: ${PUPILS} pupils in ${ARRIVAL_MS / 1000} s, ${SAVES} saves each over ${round(600 / COMPRESSION)} s`, result.rush);
    }

    // ---------------- saturated saves
    if (PHASES.has('saturated')) {
      // Each client saves for its own pupils in turn (client w: pupils w, w + SAT_CONCURRENCY, …), so that no pupil
      // goes over the per-pupil save limit (10 a second, decision 39) while the server is saturated.
      const satPupils = Array.from({ length: SAT_CONCURRENCY }, (_, w) =>
        Array.from({ length: Math.max(1, Math.floor(PUPILS / SAT_CONCURRENCY)) }, (_, k) => w + k * SAT_CONCURRENCY).filter(
          (i) => i < PUPILS,
        ),
      );
      if (!PHASES.has('rush')) {
        await Promise.all(satPupils.flat().map((i) => call('warm', 'POST', `/api/chapter/start/${rush.id}`, tokens[i])));
      }
      rec = new Recorder();
      const m = meter();
      const seq0 = Date.now() * 10 + 5_000_000;
      if (SAT_DRIVER === 'undici') {
        const until = performance.now() + SAT_S * 1000;
        await Promise.all(
          Array.from({ length: SAT_CONCURRENCY }, async (_, w) => {
            for (let n = 0; performance.now() < until; n++) {
              const pupil = satPupils[w][n % satPupils[w].length];
              await save(pupil, rush.exerciseIds[n % EXERCISES], seq0 + n, `${w}.${n}`);
            }
          }),
        );
      } else {
        // A lean driver in its own process (saturate.mjs): its CPU counts as the client's, like autocannon's.
        const configFile = path.join(dataDir, 'saturate.json');
        const clientTokens = satPupils.map((pupils) => pupils.map((i) => tokens[i]));
        writeFileSync(
          configFile,
          JSON.stringify({ port: PORT, seconds: SAT_S, seq0, exerciseIds: rush.exerciseIds, tokens: clientTokens }),
        );
        const out = await run(['node', path.join(ROOT, 'bench/rush/saturate.mjs'), configFile], m);
        if (out.code !== 0) throw new Error(`saturate.mjs: ${out.stderr}`);
        const { samples, acked } = JSON.parse(out.stdout) as {
          samples: { ms: number[]; at: number[]; status: number[] };
          acked: number[][];
        };
        samples.ms.forEach((ms, k) => rec.samples.push({ route: 'POST /answer', ms, status: samples.status[k], at: samples.at[k] }));
        samples.status.forEach(
          (status) => status !== 200 && rec.errors.set(`POST /answer ${status}`, (rec.errors.get(`POST /answer ${status}`) ?? 0) + 1),
        );
        acked.forEach((ns, w) =>
          ns.forEach((n) => {
            const pupil = satPupils[w][n % satPupils[w].length];
            acks.push({ userId: pupilIds[pupil], exerciseId: rush.exerciseIds[n % EXERCISES], seq: seq0 + n, answer: `${w}.${n}` });
          }),
        );
      }
      const satCpu = m.stop();
      result.saturated = rec.report(satCpu);
      result.saturated.cost = costOf(satCpu, result.saturated.routes['POST /answer']?.count ?? 0);
      printPhase(`Saturated: ${SAT_CONCURRENCY} clients saving back to back for ${SAT_S} s`, result.saturated);
    }

    await http.close();
    await stopProcess(server);
    server = undefined;

    // ---------------- check
    const stored = (await db.execute(sql`SELECT user_id, exercise_id, seq::text AS seq, answer FROM answers`)) as unknown as {
      rows: Array<{ user_id: string; exercise_id: string; seq: string; answer: string }>;
    };
    const keys = new Set(stored.rows.map((r) => `${r.user_id}|${r.exercise_id}|${r.seq}|${r.answer}`));
    const missing = acks.filter((x) => !keys.has(`${x.userId}|${x.exerciseId}|${x.seq}|${x.answer}`)).length;
    result.check = { acknowledged: acks.length, rows: stored.rows.length, acknowledgedButMissing: missing };
    console.log(`\nCheck: ${acks.length} acknowledged saves, ${stored.rows.length} rows, acknowledged but missing: ${missing}`);
    // Decision 116: after tens of thousands of saves from concurrent connections, the counters the triggers
    // keep must equal what the answers say, pair by pair and per exercise.
    const [drift] = (
      (await db.execute(sql`
        WITH truth AS (
          SELECT DISTINCT ON (a.exercise_id, a.user_id) a.exercise_id, a.user_id,
            coalesce(a.grade, '') <> '' OR btrim(a.answer) <> '' AS answered, coalesce(a.grade, '') <> '' AS graded
          FROM answers a WHERE a.withdrawn_at IS NULL
          ORDER BY a.exercise_id, a.user_id, a.seq DESC, a.created_at DESC, a.id DESC),
        per_exercise AS (
          SELECT exercise_id, count(*)::int AS pairs, (count(*) FILTER (WHERE answered))::int AS answered, (count(*) FILTER (WHERE graded))::int AS graded
          FROM truth GROUP BY exercise_id),
        kept AS (
          SELECT exercise_id, sum(pairs)::int AS pairs, sum(answered)::int AS answered, sum(graded)::int AS graded
          FROM answer_counts GROUP BY exercise_id HAVING sum(pairs) <> 0)
        SELECT
          (SELECT count(*)::int FROM truth) AS pairs,
          (SELECT count(*)::int FROM (SELECT * FROM truth EXCEPT SELECT exercise_id, user_id, answered, graded FROM current_answers) d) +
          (SELECT count(*)::int FROM (SELECT exercise_id, user_id, answered, graded FROM current_answers EXCEPT SELECT * FROM truth) d) AS pairs_off,
          (SELECT count(*)::int FROM (SELECT * FROM per_exercise EXCEPT SELECT * FROM kept) d) +
          (SELECT count(*)::int FROM (SELECT * FROM kept EXCEPT SELECT * FROM per_exercise) d) AS counts_off,
          (SELECT count(DISTINCT slot)::int FROM answer_counts) AS slots`)) as unknown as {
        rows: Array<{ pairs: number; pairs_off: number; counts_off: number; slots: number }>;
      }
    ).rows;
    result.check.counters = drift;
    console.log(
      `Counters: ${drift.pairs} current pairs, ${drift.pairs_off} pairs and ${drift.counts_off} exercise counts off, ${drift.slots} connection slots used`,
    );

    // Ratios against the physical limits.
    const satRate = (result.saturated?.routes?.['POST /answer'] as { perSecond: number } | undefined)?.perSecond;
    if (satRate && result.hello?.requestsPerSecond && result.pgbench) {
      result.ratios = {
        savesPerHello: round(satRate / result.hello.requestsPerSecond, 3),
        savesPerRawUpsert: round(satRate / result.pgbench['socket, prepared'].tps, 3),
        savesPerRawUpsertTcpSimple: round(satRate / result.pgbench['tcp, simple'].tps, 3),
      };
      console.log(
        `Saturated saves/s ÷ hello world = ${result.ratios.savesPerHello}; ÷ raw upsert = ${result.ratios.savesPerRawUpsert} (socket, prepared), ${result.ratios.savesPerRawUpsertTcpSimple} (tcp, simple)`,
      );
    }
    // The same ratios from CPU cost per operation (load-independent): what 2 quiet cores would do,
    // server side only (the load generator elsewhere) and with the load generator on the same cores.
    const satCost = result.saturated?.cost;
    if (satCost && result.hello?.cost && result.pgbench) {
      const raw = result.pgbench['socket, prepared'].cost;
      result.costRatios = {
        serverSide: {
          savesPerHello: round(result.hello.cost.serverMs / satCost.serverMs, 3),
          savesPerRawUpsert: round(raw.serverMs / satCost.serverMs, 3),
        },
        withClient: {
          savesPerHello: round(result.hello.cost.allMs / satCost.allMs, 3),
          savesPerRawUpsert: round(raw.allMs / satCost.allMs, 3),
        },
      };
      console.log(`From CPU cost per operation: ${JSON.stringify(result.costRatios)}`);
    }
    const rushSave = result.rush?.routes?.['POST /answer'];
    const stormSave = result.storm?.routes?.['POST /answer'];
    const five = (phase: any) => Object.values(phase?.routes ?? {}).reduce((n: number, r: any) => n + r.status5xx, 0);
    result.aims = {
      stormSaveP99Under300: stormSave ? stormSave.p99 < 300 : undefined,
      storm5xx: result.storm ? five(result.storm) : undefined,
      rushSaveP99Under100: rushSave ? rushSave.p99 < 100 : undefined,
      rush5xx: result.rush ? five(result.rush) : undefined,
      missingZero: missing === 0,
      countersExact: drift.pairs_off === 0 && drift.counts_off === 0,
      saturatedAtLeast045RawUpsert: result.ratios ? result.ratios.savesPerRawUpsert >= 0.45 : undefined,
      saturatedAtLeast02Hello: result.ratios ? result.ratios.savesPerHello >= 0.2 : undefined,
    };
    console.log('Aims:', JSON.stringify(result.aims));
    result.loadAtEnd = load();
    const out = path.join(os.tmpdir(), `olympe-rush-${Date.now()}.json`);
    writeFileSync(out, JSON.stringify(result, null, 2));
    console.log(`Result: ${out}; load average now ${load().join(' ')}`);
    if (missing > 0 || drift.pairs_off > 0 || drift.counts_off > 0) process.exitCode = 1;
  } finally {
    await stopProcess(hello);
    await stopProcess(server);
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!env.RUSH_KEEP) await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

/**
 * CPU milliseconds per operation: serverMs = node server + the bench database's backends (what
 * the service costs), allMs = the same plus the load generator. `quietCapacity` = 2 cores ÷ cost.
 */
function costOf(cpu: CpuReport, ops: number) {
  const c = cpu.cpuSeconds;
  const serverMs = ((c.server + c.pg) * 1000) / ops;
  const allMs = ((c.server + c.pg + c.driver + c.client) * 1000) / ops;
  return {
    nodeMs: round((c.server * 1000) / ops, 3),
    pgMs: round((c.pg * 1000) / ops, 3),
    clientMs: round(((c.driver + c.client) * 1000) / ops, 3),
    serverMs: round(serverMs, 3),
    allMs: round(allMs, 3),
    quietCapacityServerSide: round((os.cpus().length * 1000) / serverMs, 0),
    quietCapacityWithClient: round((os.cpus().length * 1000) / allMs, 0),
  };
}

function printPhase(title: string, r: any) {
  console.log(`\n${title}: ${r.seconds} s, ${r.requests} requests, ${r.requestsPerSecond} req/s`);
  for (const [name, s] of Object.entries<any>(r.routes)) {
    if (name === 'warm') continue;
    console.log(
      `  ${name.padEnd(20)} ${String(s.count).padStart(6)} (${String(s.perSecond).padStart(7)}/s)  p50 ${s.p50}  p95 ${s.p95}  p99 ${s.p99}  max ${s.max} ms  5xx ${s.status5xx}  failed ${s.failed}`,
    );
  }
  console.log(`  errors: ${Object.keys(r.errors).length ? JSON.stringify(r.errors) : 'none'}`);
  if (r.timeline.length > 2) {
    console.log(
      `  timeline (10 s windows: req/s, saves/s, save p50/p99 ms): ${r.timeline.map((w: any) => `${w.fromS}s ${w.reqPerS}/${w.savesPerS} ${w.saveP50}/${w.saveP99}`).join(' | ')}`,
    );
  }
  console.log(`  CPU (% of one core): ${JSON.stringify(r.cpu)}`);
  if (r.cost) console.log(`  CPU ms per save: ${JSON.stringify(r.cost)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  await runRush();
  console.log(`Total ${round((Date.now() - started) / 1000)} s`);
}
