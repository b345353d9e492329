/**
 * Graceful stop: saves held in flight (a lock on `answers` keeps their INSERT waiting), SIGTERM,
 * then: new requests are refused, the lock is released, every in-flight save is answered 200 and
 * stored, the process exits 0 and leaves no connection open in PostgreSQL.
 */
import http from 'node:http';
import pg from 'pg';
import {
  admin,
  call,
  CHECK_APP,
  Checks,
  createDatabase,
  dropDatabase,
  openCheckDb,
  pool,
  PORT_A,
  rows,
  SERVER_URL,
  seedChapter,
  since,
  sleep,
  startServer,
  withDatabase,
  type CallResult,
  type ScenarioResult,
} from '../harness.js';
import { sql } from 'drizzle-orm';
import { UNAVAILABLE_MESSAGE } from '../../../server/src/http/errors.js';

const IN_FLIGHT = 16;

export async function gracefulStop(): Promise<ScenarioResult> {
  const dbName = 'olympe_faults_sigterm';
  await createDatabase(dbName);
  const check = openCheckDb(dbName);
  const server = await startServer({ port: PORT_A, dbName, env: { LOG_LEVEL: 'info' } });
  // Keep-alive, as browsers: the stop must not wait for idle sockets (Fastify keeps them 72 s).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const locker = new pg.Client({ connectionString: withDatabase(SERVER_URL, dbName), application_name: CHECK_APP });
  locker.on('error', () => {});
  const c = new Checks();
  try {
    const seeded = await seedChapter(check.db, { pupils: IN_FLIGHT, exercises: 1, tag: 'sigterm' });
    await pool(seeded.pupils, 8, async (p) => {
      const res = await call(server.base, 'POST', `/api/chapter/start/${seeded.chapterId}`, { token: p.token, agent });
      if (res.status !== 200) throw new Error(`start: ${res.status}`);
    });
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const idleSocket = await call(server.base, 'GET', '/api/config', { agent: idleAgent });
    c.expect(idleSocket.status === 200, 'GET /api/config before the stop');

    // Hold the saves: SHARE mode lets the context SELECTs run but blocks every INSERT INTO answers.
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE answers IN SHARE MODE');
    const inFlight: Promise<CallResult>[] = seeded.pupils.map((p, i) =>
      call(server.base, 'POST', '/api/answer', {
        token: p.token,
        body: { exerciseId: seeded.exerciseIds[0], answer: String(i), seq: 1000 + i },
        agent,
        timeoutMs: 30_000,
      }),
    );
    // Wait until the pool's connections are all blocked on the lock (the others queue in the pool).
    const waiting = async () =>
      Number(
        (
          await admin<{ n: string }>(
            `SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND application_name <> $2`,
            [dbName, CHECK_APP],
          )
        )[0].n,
      );
    const tWait = performance.now();
    while ((await waiting()) < Math.min(IN_FLIGHT, 10) && since(tWait) < 10_000) await sleep(50);
    const blocked = await waiting();
    c.expect(blocked >= Math.min(IN_FLIGHT, 10), `only ${blocked} saves blocked on the lock`);

    const tTerm = performance.now();
    server.kill('SIGTERM');
    await sleep(500);
    // New requests: a new connection, and a request on a kept-alive socket, are both refused.
    const fresh = await call(server.base, 'GET', '/api/config', { timeoutMs: 3_000 });
    const reused = await call(server.base, 'GET', '/api/config', { agent: idleAgent, timeoutMs: 3_000 });
    idleAgent.destroy();
    const refused = (r: CallResult) => r.status === 503 || (r.status === 0 && r.error !== 'timeout');
    c.expect(refused(fresh), `a new request during the stop got ${fresh.status || fresh.error}`);
    c.expect(refused(reused), `a request on a kept-alive socket during the stop got ${reused.status || reused.error}`);
    for (const r of [fresh, reused]) {
      if (r.status === 503)
        c.expect(r.json?.message === UNAVAILABLE_MESSAGE, `503 during the stop without the French message: ${JSON.stringify(r.json)}`);
    }
    c.expect(server.alive(), 'the process exited before its in-flight requests were answered');

    // Release the lock: the in-flight saves finish, then the process stops.
    const tRelease = performance.now();
    await locker.query('COMMIT');
    const results = await Promise.all(inFlight);
    const answered = results.filter((r) => r.status === 200).length;
    const exit = await Promise.race([server.exited, sleep(15_000).then(() => null)]);
    const exitMs = since(tRelease);
    c.expect(
      answered === IN_FLIGHT,
      `in-flight saves answered 200: ${answered}/${IN_FLIGHT} (${results.map((r) => r.status || r.error).join(',')})`,
    );
    c.expect(exit !== null, `the process did not exit within 15 s of the last response`);
    c.expect(exit?.code === 0, `exit ${JSON.stringify(exit)}`);
    const [{ n }] = await rows<{ n: string }>(
      check.db,
      sql`SELECT count(*)::text AS n FROM answers WHERE exercise_id = ${seeded.exerciseIds[0]}`,
    );
    c.expect(Number(n) === IN_FLIGHT, `${n} saves stored of ${IN_FLIGHT}`);
    const left = await admin<{ n: string }>(
      `SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = $1 AND application_name <> $2`,
      [dbName, CHECK_APP],
    );
    c.expect(Number(left[0].n) === 0, `${left[0].n} connections of the server still open after it exited`);
    const errors = server
      .output()
      .split('\n')
      .filter((l) => /"level":(50|60)/.test(l));
    c.expect(errors.length === 0, `errors logged: ${errors.slice(0, 2).join(' | ')}`);
    const closedCleanly = server.output().includes('"msg":"stopped: database closed"');
    c.expect(closedCleanly, 'no "stopped: database closed" in the log: the pool did not end before the exit');
    return {
      name: 'graceful stop (SIGTERM)',
      pass: c.pass,
      figures:
        `${IN_FLIGHT} saves in flight (${blocked} blocked in PostgreSQL): ${answered} answered 200 and stored ${n}; ` +
        `during the stop a new connection got ${fresh.status || fresh.error}, a kept-alive socket got ${reused.status || reused.error}; ` +
        `exit code ${exit?.code ?? 'none'} ${Math.round(exitMs)} ms after the lock was released (${Math.round(since(tTerm))} ms after SIGTERM); ` +
        `pool ended before the exit: ${closedCleanly ? 'yes' : 'no'}; server connections left in PostgreSQL: ${left[0].n}`,
      notes: c.failed,
    };
  } finally {
    await locker.end().catch(() => {});
    agent.destroy();
    server.kill('SIGKILL');
    await check.close();
    await dropDatabase(dbName);
  }
}
