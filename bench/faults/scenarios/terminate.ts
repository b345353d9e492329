/**
 * pg_terminate_backend of every connection of the API, three times in a row, under autosave load:
 * the process survives (the pool's and the clients' `error` events are handled), answers again at
 * once, and nothing acknowledged is lost.
 */
import {
  admin,
  call,
  CHECK_APP,
  Checks,
  createDatabase,
  dropDatabase,
  keepAlive,
  openCheckDb,
  PORT_A,
  secs,
  seedChapter,
  since,
  sleep,
  startServer,
  type ScenarioResult,
} from '../harness.js';
import { settleClass, startClass, statusLine } from '../pupils.js';

const PUPILS = 40;
const ROUNDS = 3;

export async function terminateBackends(): Promise<ScenarioResult> {
  const dbName = 'olympe_faults_terminate';
  await createDatabase(dbName);
  const check = openCheckDb(dbName);
  const server = await startServer({ port: PORT_A, dbName });
  const agent = keepAlive();
  const c = new Checks();
  try {
    const seeded = await seedChapter(check.db, { pupils: PUPILS, exercises: 5, tag: 'terminate' });
    const { pupils, stats } = await startClass(seeded, () => server.base, agent, 10);
    // Pupils type every ~400 ms: the pool holds several busy connections when they are cut.
    const typing = Promise.all(pupils.map((p) => p.typeUntil(Date.now() + 3_000 + ROUNDS * 2_500 + 2_000, 400)));
    await sleep(3_000);

    const terminated: number[] = [];
    const healthAfter: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Two statements: in one, the planner may call pg_terminate_backend before filtering rows.
      const pids = (
        await admin<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name <> $2 AND pid <> pg_backend_pid()`,
          [dbName, CHECK_APP],
        )
      ).map((r) => r.pid);
      const killed = await admin<{ ok: boolean }>(`SELECT pg_terminate_backend(pid) AS ok FROM unnest($1::int[]) AS pid`, [pids]);
      terminated.push(killed.filter((r) => r.ok).length);
      const t = performance.now();
      let ok = false;
      while (since(t) < 10_000) {
        if (!server.alive()) break;
        const res = await call(server.base, 'GET', '/api/health', { timeoutMs: 3_000 });
        if (res.status === 200) {
          ok = true;
          break;
        }
        await sleep(50);
      }
      healthAfter.push(ok ? since(t) : NaN);
      c.expect(server.alive(), `round ${round + 1}: the server process died: ${server.output().slice(-800)}`);
      if (!server.alive()) break;
      c.expect(ok, `round ${round + 1}: /api/health did not answer 200 within 10 s`);
      await sleep(2_000);
    }
    await typing;
    const { drainMs, stored } = await settleClass(c, check.db, seeded, pupils, stats);

    c.expect(
      terminated.every((n) => n > 0),
      `a round found no connection to terminate (${terminated.join(', ')})`,
    );
    c.expect(server.alive(), 'the server process died');
    c.expect(!stats.statuses.has('500'), `${stats.statuses.get('500')} saves answered 500`);
    c.expect(stats.badMessages.length === 0, `503 without the French message: ${stats.badMessages.slice(0, 2).join(' | ')}`);
    return {
      name: 'pg_terminate_backend ×3',
      pass: c.pass,
      figures:
        `connections terminated per round: ${terminated.join(', ')}; process alive after each (pid ${server.pid}); ` +
        `/api/health 200 after ${healthAfter.map((ms) => (Number.isNaN(ms) ? 'never' : `${Math.round(ms)} ms`)).join(', ')}; ` +
        `${PUPILS} pupils: saves acknowledged ${stored.acknowledged}, found ${stored.found}, lost ${stored.lost}; ` +
        `pages drained ${drainMs === null ? 'never' : secs(drainMs)} after typing stopped; save responses: ${statusLine(stats)}`,
      notes: c.failed,
    };
  } finally {
    agent.destroy();
    server.kill('SIGKILL');
    await check.close();
    await dropDatabase(dbName);
  }
}
