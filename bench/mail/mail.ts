/**
 * `node --import tsx bench/mail/mail.ts`: 10,000 « results published » mails through the jobs
 * table to a real SMTP server (server/test/smtp.ts) on PostgreSQL (bench/mail/README.md).
 * 1. Queue the mails of 10,000 participants; start the app's mail workers in a child process.
 * 2. Halfway through, SIGKILL the child (kill -9); start a new one; wait until the queue is empty.
 * 3. Count what the SMTP server received: mails/s, duplicates, missing.
 * Knobs: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_MAILS (10000),
 * MAIL_RATE_PER_SECOND (0 = unthrottled), MAIL_CONCURRENCY (4), BENCH_KILL_AT (0.5).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/client.js';
import { queueResults } from '../../server/src/mail/notifications.js';
import { startSmtp } from '../../server/test/smtp.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const N = Number(process.env.BENCH_MAILS ?? 10_000);
const killAt = Number(process.env.BENCH_KILL_AT ?? 0.5);
const rate = process.env.MAIL_RATE_PER_SECOND ?? '0';
const concurrency = process.env.MAIL_CONCURRENCY ?? '4';

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

const dbName = `olympe_bench_mail_${randomUUID().slice(0, 8)}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const databaseUrl = withDatabase(serverUrl, dbName);
const database = await openDatabase({ databaseUrl });
await database.migrate();
const db = database.db;

const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const [{ id: chapterId }] = (await client.query(`INSERT INTO chapters (title) VALUES ('Coupe 2026 — résultats') RETURNING id`)).rows;
await client.query(
  `INSERT INTO users (email, first_name, last_name, email_notifications)
   SELECT 'eleve' || g || '@bench.olympe.test', 'Élève', 'N°' || g, true FROM generate_series(1, $1::int) g`,
  [N],
);
await client.query(`INSERT INTO chapter_sessions (chapter_id, user_id) SELECT $1, id FROM users WHERE email LIKE '%@bench.olympe.test'`, [
  chapterId,
]);

const smtp = await startSmtp();
const t0 = performance.now();
const queued = await queueResults(db, chapterId);
console.log(`queued ${queued} mails in ${(performance.now() - t0).toFixed(0)} ms (deliveries + jobs, one INSERT … SELECT)`);

const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  SMTP_URL: `smtp://127.0.0.1:${smtp.port}?pool=true&maxConnections=${concurrency}`,
  MAIL_RATE_PER_SECOND: rate,
  MAIL_CONCURRENCY: concurrency,
  DATA_DIR: path.join('/tmp', dbName),
  JWT_SECRET: 'bench-secret-bench-secret-bench',
  PUBLIC_URL: 'https://olympe.example',
};
const start = () =>
  new Promise<ChildProcess>((resolve) => {
    const child = fork(path.join(import.meta.dirname, 'worker.ts'), { env, execArgv: ['--import', 'tsx'] });
    child.on('message', (m) => m === 'ready' && resolve(child));
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let child = await start();
const t1 = performance.now();
while (smtp.received.length < N * killAt) await sleep(5);
child.kill('SIGKILL');
const killedAfter = (performance.now() - t1) / 1000;
const atKill = smtp.received.length;
await sleep(200);
console.log(
  `kill -9 after ${atKill} mails received (${killedAfter.toFixed(1)} s): ${(atKill / killedAfter).toFixed(0)} mails/s before the kill`,
);
const stuck = (await client.query(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'mail.send' AND status = 'running'`)).rows[0].n;
console.log(`jobs left « running » by the killed instance: ${stuck}`);

child = await start();
const t2 = performance.now();
for (;;) {
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM mail_deliveries WHERE status = 'pending'`);
  if (rows[0].n === 0) break;
  await sleep(200);
}
await sleep(500);
const afterRestart = (performance.now() - t2) / 1000;
child.kill('SIGTERM');

const byRecipient = new Map<string, number>();
const ids = new Set<string>();
for (const m of smtp.received) {
  for (const to of m.to) byRecipient.set(to, (byRecipient.get(to) ?? 0) + 1);
  const id = /^Message-ID:\s*(<[^>]+>)/im.exec(m.data)?.[1];
  if (id) ids.add(id);
}
const duplicates = [...byRecipient.values()].reduce((s, n) => s + n - 1, 0);
const missing = N - byRecipient.size;
const status = (await client.query(`SELECT status, count(*)::int AS n FROM mail_deliveries GROUP BY status ORDER BY status`)).rows;
console.log(
  `restart: the rest (${smtp.received.length - atKill} mails) in ${afterRestart.toFixed(1)} s, including up to 60 s for the killed instance's jobs to go stale`,
);
console.log(`received ${smtp.received.length} mails for ${byRecipient.size} recipients, ${ids.size} distinct Message-IDs`);
console.log(`duplicates ${duplicates}, missing ${missing}`);
console.log(`deliveries: ${status.map((r) => `${r.status} ${r.n}`).join(', ')}`);

await client.end();
await database.close();
await smtp.close();
await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await admin.end();
process.exit(duplicates === 0 && missing === 0 ? 0 : 1);
