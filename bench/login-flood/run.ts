/**
 * A login flood against the real server in its own process (bench/login-flood/README.md): 1,500
 * concurrent logins with random unknown e-mails from many client addresses, and meanwhile legitimate
 * logins from another address. Reports the legitimate logins' latency and what the flood got.
 *
 *   npm run bench:login-flood
 *   FLOOD_LOGINS=1500 FLOOD_CLIENTS=150 FLOOD_LEGIT=8 FLOOD_PORT=3281 FLOOD_DB_HOST=socket|tcp
 *   FLOOD_REDIS_URL=redis://127.0.0.1:6379 (limits in Redis) FLOOD_SERVER_ENTRY=<another copy's main.ts>
 *   FLOOD_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres FLOOD_CPU_PROF=<dir> (server under --cpu-prof)
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { hashPassword } from '../../server/src/auth/service.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users } from '../../server/src/db/schema.js';
import { CpuMeter } from '../rush/cpu.js';

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, '../..');
const DB_NAME = 'olympe_login_flood';
const ADMIN_URL = env.FLOOD_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const APP_DB_URL =
  env.FLOOD_DB_HOST === 'tcp'
    ? `postgres://postgres@127.0.0.1:5432/${DB_NAME}`
    : `postgres://postgres@localhost/${DB_NAME}?host=/var/run/postgresql`;
const LOGINS = Number(env.FLOOD_LOGINS ?? 1500);
const CLIENTS = Number(env.FLOOD_CLIENTS ?? 150);
const LEGIT = Number(env.FLOOD_LEGIT ?? 8);
const PORT = Number(env.FLOOD_PORT ?? 3281);
const PASSWORD = 'Flood#2026-mot-de-passe';
const LEGIT_EMAIL = 'eleve.legitime@flood.fr';
const LEGIT_IP = '192.0.2.10';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;
const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return round(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN);
};

async function admin(query: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** Distinct documentation-range addresses (RFC 5737 / 6598), one per flooding client. */
const clientIp = (k: number) => `100.64.${Math.floor(k / 250)}.${(k % 250) + 1}`;

async function login(agent: Agent, email: string, password: string, ip: string) {
  const started = performance.now();
  try {
    const res = await request(`http://127.0.0.1:${PORT}/api/auth/login`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email, password }),
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    await res.body.text();
    return { status: res.statusCode, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

async function waitForHttp(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error(`Le serveur ne répond pas : ${url}`);
}

async function main() {
  console.log(
    `Machine: ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => round(l, 1))
      .join(' ')}`,
  );
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-flood-'));
  const database = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:5432/${DB_NAME}` });
  let server: ChildProcess | undefined;
  try {
    await database.migrate();
    await database.db.insert(users).values({ email: LEGIT_EMAIL, passwordHash: await hashPassword(PASSWORD) });
    const prof = env.FLOOD_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(env.FLOOD_CPU_PROF)}`] : [];
    server = spawn('node', [...prof, '--import', 'tsx', env.FLOOD_SERVER_ENTRY ?? 'server/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATABASE_URL: APP_DB_URL,
        JWT_SECRET: 'flood-secret-flood-secret-flood-secret',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The driver names each simulated client in X-Forwarded-For: only a proxy on this host is
        // believed (decision 24), which this driver, on loopback, plays.
        TRUST_PROXY: 'loopback',
        ...(env.FLOOD_REDIS_URL ? { REDIS_URL: env.FLOOD_REDIS_URL } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitForHttp(`http://127.0.0.1:${PORT}/api/health`);
    const agent = new Agent({ connections: null, keepAliveTimeout: 60_000, pipelining: 0 });

    // Warm-up: the server's first argon2 calls and the legitimate user's path, outside the flood.
    const quiet: number[] = [];
    for (let i = 0; i < 5; i++) {
      quiet.push((await login(agent, LEGIT_EMAIL, PASSWORD, LEGIT_IP)).ms);
      await login(agent, `chaud${i}@flood.fr`, 'Faux#2026', '198.51.100.1');
    }
    console.log(`Quiet: legitimate login ${quiet.map((ms) => round(ms)).join(', ')} ms`);

    // The legitimate pupil in a process of its own, its connection already open (as behind a reverse
    // proxy): it measures the server, not this driver's event loop, busy with the flood's requests.
    const legitProcess = fork(path.join(import.meta.dirname, 'legit.mjs'), [
      String(PORT),
      LEGIT_EMAIL,
      PASSWORD,
      LEGIT_IP,
      String(LEGIT),
      '100',
      '500',
    ]);
    const legit: Array<{ at: number; status: number; ms: number }> = [];
    const legitDone = new Promise<void>((resolve) => {
      legitProcess.on('message', (m: { ready?: true; done?: true; at?: number; status?: number; ms?: number }) => {
        if (m.done) resolve();
        else if (m.at !== undefined) legit.push({ at: round(m.at), status: m.status!, ms: m.ms! });
      });
      legitProcess.on('exit', () => resolve());
    });
    await new Promise<void>((resolve) => legitProcess.once('message', () => resolve()));

    const meter = new CpuMeter(() => (server?.pid ? [server.pid] : []), DB_NAME);
    const started = performance.now();
    legitProcess.send('go');
    const flood = Array.from({ length: LOGINS }, (_, k) =>
      login(agent, `inconnu-${k}-${Math.random().toString(36).slice(2, 8)}@flood.fr`, 'Devine#2026', clientIp(k % CLIENTS)),
    );
    const results = await Promise.all(flood);
    const floodSeconds = (performance.now() - started) / 1000;
    await legitDone;
    const cpu = meter.stop();

    const byStatus: Record<string, number> = {};
    for (const r of results) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    const floodMs = results.map((r) => r.ms);
    console.log(`\nFlood: ${LOGINS} concurrent logins, unknown e-mails, from ${CLIENTS} addresses, over ${round(floodSeconds, 1)} s`);
    console.log(`  answers: ${JSON.stringify(byStatus)}`);
    console.log(`  latency p50 ${quantile(floodMs, 0.5)} / p99 ${quantile(floodMs, 0.99)} / max ${quantile(floodMs, 1)} ms`);
    console.log(`  CPU (% of one core): ${JSON.stringify(cpu)}`);
    console.log(`Legitimate login from another address during the flood (start ms → status, latency ms):`);
    for (const l of legit) console.log(`  +${l.at} → ${l.status}, ${round(l.ms)} ms`);
    const during = legit.filter((l) => l.at < floodSeconds * 1000).map((l) => l.ms);
    const all = legit.map((l) => l.ms);
    console.log(
      `Legitimate login: max ${quantile(all, 1)} ms, median ${quantile(all, 0.5)} ms; while the flood was answering: ${during.length} logins, max ${during.length ? quantile(during, 1) : '—'} ms; all 200: ${legit.every((l) => l.status === 200)}`,
    );
    await agent.close();
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
    }
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

await main();
