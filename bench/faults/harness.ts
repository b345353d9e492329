/**
 * Pieces shared by the fault scenarios (bench/faults/README.md): throw-away PostgreSQL databases,
 * real server processes (`node --import tsx server/src/main.ts`), an HTTP client with timeouts,
 * stopping and starting the machine's PostgreSQL, and checks of what the database holds.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../../server/src/db/schema.js';
import { accessGroups, chapters, exercises, HOME_SCHOOLING_ID, statementVersions, users } from '../../server/src/db/schema.js';
import { createTokenSigner } from '../../server/src/auth/tokens.js';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const SERVER_URL = process.env.FAULTS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.FAULTS_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Both instances sign and accept the same tokens. */
export const JWT_SECRET = 'faults-secret-faults-secret-faults-secret';
export const PORT_A = Number(process.env.FAULTS_PORT ?? 3261);
export const PORT_B = PORT_A + 1;
export const UNAVAILABLE_MESSAGE = 'Le service est momentanément indisponible. Réessayez dans un instant.';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const since = (t0: number) => performance.now() - t0;
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** One statement on the server's maintenance database (or `database`). */
export async function admin<T extends pg.QueryResultRow = any>(query: string, params: unknown[] = [], database?: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: database ? withDatabase(SERVER_URL, database) : SERVER_URL });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(query, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function createDatabase(name: string) {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
}

export async function dropDatabase(name: string) {
  if (process.env.FAULTS_KEEP) return;
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
}

export const CHECK_APP = 'olympe-faults-check';

/** The harness's own connection to a scenario database (seeding and checks), never the server's. */
export function openCheckDb(name: string) {
  const pool = new pg.Pool({ connectionString: withDatabase(SERVER_URL, name), max: 4, application_name: CHECK_APP });
  pool.on('error', () => {});
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
export type CheckDb = ReturnType<typeof openCheckDb>['db'];

export async function rows<T>(db: CheckDb, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

// ---------------------------------------------------------------------------------------------
// Server processes

export interface ServerProcess {
  port: number;
  base: string;
  pid: number;
  proc: ChildProcess;
  /** stdout + stderr of the process (warn level and above). */
  output: () => string;
  alive: () => boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: (signal: NodeJS.Signals) => void;
}

const dataDirs: string[] = [];
const running = new Set<ChildProcess>();

/** Starts `server/src/main.ts` on `port` against database `dbName`; resolves once /api/health answers 200. */
export async function startServer(opts: {
  port: number;
  dbName: string;
  dataDir?: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'olympe-faults-'));
  if (!opts.dataDir) dataDirs.push(dataDir);
  let out = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      DATABASE_URL: withDatabase(SERVER_URL, opts.dbName),
      DATA_DIR: dataDir,
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  let alive = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => {
      alive = false;
      running.delete(proc);
      resolve({ code, signal });
    }),
  );
  const server: ServerProcess = {
    port: opts.port,
    base: `http://127.0.0.1:${opts.port}`,
    pid: proc.pid!,
    proc,
    output: () => out,
    alive: () => alive,
    exited,
    kill: (signal) => {
      if (alive) proc.kill(signal);
    },
  };
  const started = performance.now();
  while (since(started) < 60_000) {
    if (!alive) throw new Error(`the server on port ${opts.port} exited at start:\n${out.slice(-2000)}`);
    const res = await call(server.base, 'GET', '/api/health', { timeoutMs: 2000, agent: false });
    if (res.status === 200) return server;
    await sleep(100);
  }
  proc.kill('SIGKILL');
  throw new Error(`the server on port ${opts.port} did not answer /api/health within 60 s:\n${out.slice(-2000)}`);
}

/** Kills whatever server this process started and is still running, and removes the data dirs. */
export function cleanupServers() {
  for (const proc of running) proc.kill('SIGKILL');
  running.clear();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface CallResult {
  status: number;
  json: any;
  ms: number;
  /** Set when no response came (refused, reset, timeout). */
  error?: string;
}

export const keepAlive = () => new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One request; never rejects: a network failure or a timeout is `status: 0` with `error`. */
export function call(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; timeoutMs?: number; agent?: http.Agent | false; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const started = performance.now();
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<CallResult, 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ ...r, ms: since(started) });
    };
    const req = http.request(
      {
        host: hostname,
        port,
        method,
        path: url,
        agent: opts.agent ?? false,
        headers: {
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => finish({ status: 0, json: undefined, error: err.message }));
        res.on('end', () => {
          let json: any;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            json = undefined;
          }
          finish({ status: res.statusCode ?? 0, json });
        });
      },
    );
    req.setTimeout(opts.timeoutMs ?? 10_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => finish({ status: 0, json: undefined, error: err.code ?? err.message }));
    if (payload) req.write(payload);
    req.end();
  });
}

// ---------------------------------------------------------------------------------------------
// The machine's PostgreSQL

const PG_VERSION = (() => {
  try {
    return readdirSync('/etc/postgresql')[0];
  } catch {
    return undefined;
  }
})();
let pgStopped = false;

const pgCtlArgs = (action: 'stop' | 'start') => ['--skip-systemctl-redirect', PG_VERSION!, 'main', action];

/** Asynchronous, so that the clients' timers keep running while PostgreSQL stops or starts. */
async function pgCtl(action: 'stop' | 'start') {
  if (!PG_VERSION) throw new Error('no /etc/postgresql: cannot stop and start PostgreSQL here');
  await promisify(execFile)('pg_ctlcluster', pgCtlArgs(action));
}

export const canControlPostgres = () => !!PG_VERSION;

/** Fast shutdown (active transactions roll back, clients are disconnected). Always pair with pgStart. */
export async function pgStop() {
  pgStopped = true;
  await pgCtl('stop');
}

export async function pgStart() {
  if (!pgStopped) return;
  await pgCtl('start');
  pgStopped = false;
  for (let i = 0; i < 100; i++) {
    if (
      await admin('SELECT 1').then(
        () => true,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
}

/** Whatever happens to this process, PostgreSQL is started again and no server is left running. */
export function installSafetyNet() {
  const restore = () => {
    cleanupServers();
    if (pgStopped) {
      try {
        execFileSync('pg_ctlcluster', pgCtlArgs('start'), { stdio: 'ignore' });
        pgStopped = false;
      } catch {
        // Reported by the scenario; nothing more to do on the way out.
      }
    }
  };
  process.on('exit', restore);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      restore();
      process.exit(130);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Seed: pupils with complete profiles and one timed chapter of numeric exercises.

export interface Seeded {
  chapterId: string;
  exerciseIds: string[];
  pupils: Array<{ id: string; email: string; token: string }>;
}

export async function seedChapter(
  db: CheckDb,
  opts: { pupils: number; exercises: number; minutes?: number; tag: string },
): Promise<Seeded> {
  const signer = createTokenSigner(JWT_SECRET);
  const inserted = await db
    .insert(users)
    .values(
      Array.from({ length: opts.pupils }, (_, i) => ({
        email: `eleve${i}.${opts.tag}@faults.test`,
        firstName: 'Élève',
        lastName: `N${i}`,
        gender: i % 2 ? 'female' : 'male',
        birthDate: '2010-01-01',
        grade: '3eme',
        defaultChoice: 'local',
        emailParent: 'parent@faults.test',
        institutionId: HOME_SCHOOLING_ID,
      })),
    )
    .returning({ id: users.id, email: users.email });
  const [chapter] = await db
    .insert(chapters)
    .values({ title: `Pannes — ${opts.tag}` })
    .returning();
  await db.insert(accessGroups).values({
    chapterId: chapter.id,
    position: 0,
    timeDuration: opts.minutes ?? 60,
    accessStart: new Date(Date.now() - 60_000),
  });
  const exerciseIds = (
    await db
      .insert(exercises)
      .values(
        Array.from({ length: opts.exercises }, (_, k) => ({
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
    .values(exerciseIds.map((exerciseId) => ({ exerciseId, position: 0, content: 'Calculez.', answer: '42' })));
  const pupils = await Promise.all(inserted.map(async (u) => ({ ...u, token: await signer.sign({ userId: u.id, tokenVersion: 0 }) })));
  return { chapterId: chapter.id, exerciseIds, pupils };
}

// ---------------------------------------------------------------------------------------------
// Checks

export interface Ack {
  userId: string;
  exerciseId: string;
  seq: number;
  answer: string;
}

/**
 * Every acknowledged save is a row with the same (user, exercise, seq, answer); the current answer
 * (highest seq) of each (user, exercise) equals `expected` (the last value the pupil typed).
 */
export async function checkStored(
  db: CheckDb,
  chapterId: string,
  acks: Ack[],
  expected: Map<string, { answer: string; seq: number }>,
): Promise<{ rows: number; acknowledged: number; found: number; lost: number; wrongCurrent: number }> {
  const stored = await rows<{ user_id: string; exercise_id: string; seq: string; answer: string }>(
    db,
    sql`SELECT a.user_id, a.exercise_id, a.seq::text AS seq, a.answer FROM answers a JOIN exercises e ON e.id = a.exercise_id WHERE e.chapter_id = ${chapterId}`,
  );
  const keys = new Set(stored.map((r) => `${r.user_id}|${r.exercise_id}|${r.seq}|${r.answer}`));
  const distinct = new Map(acks.map((a) => [`${a.userId}|${a.exerciseId}|${a.seq}|${a.answer}`, a]));
  const lost = [...distinct.keys()].filter((k) => !keys.has(k)).length;
  const current = await rows<{ user_id: string; exercise_id: string; seq: string; answer: string }>(
    db,
    sql`SELECT DISTINCT ON (a.user_id, a.exercise_id) a.user_id, a.exercise_id, a.seq::text AS seq, a.answer
        FROM answers a JOIN exercises e ON e.id = a.exercise_id
        WHERE e.chapter_id = ${chapterId} AND a.withdrawn_at IS NULL
        ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC`,
  );
  const currentMap = new Map(current.map((r) => [`${r.user_id}|${r.exercise_id}`, r]));
  let wrongCurrent = 0;
  for (const [key, want] of expected) {
    const got = currentMap.get(key);
    if (!got || got.answer !== want.answer || Number(got.seq) !== want.seq) wrongCurrent++;
  }
  return { rows: stored.length, acknowledged: distinct.size, found: distinct.size - lost, lost, wrongCurrent };
}

export function shuffle<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function pool<T>(items: T[], limit: number, fn: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Results

export interface ScenarioResult {
  name: string;
  pass: boolean;
  /** One line of figures. */
  figures: string;
  /** Why it failed (each a short line), or notes. */
  notes: string[];
}

/** Collects named checks; `pass` when all hold. */
export class Checks {
  readonly failed: string[] = [];
  expect(ok: boolean, what: string) {
    if (!ok) this.failed.push(what);
    return ok;
  }
  get pass() {
    return this.failed.length === 0;
  }
}
