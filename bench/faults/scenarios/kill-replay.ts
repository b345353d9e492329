/**
 * kill -9 while 200 pupils autosave, restart, pages recover by themselves; then every save of the
 * run replayed three times, shuffled and concurrently, into an emptied answers table.
 */
import { sql } from 'drizzle-orm';
import {
  call,
  checkStored,
  Checks,
  createDatabase,
  dropDatabase,
  keepAlive,
  openCheckDb,
  pool,
  PORT_A,
  rows,
  secs,
  seedChapter,
  shuffle,
  since,
  sleep,
  startServer,
  type Ack,
  type ScenarioResult,
} from '../harness.js';
import { settleClass, startClass, statusLine } from '../pupils.js';

const PUPILS = Number(process.env.FAULTS_PUPILS ?? 200);
const TYPE_MS = 24_000;
const KILL_AT_MS = 8_000;
const INTERVAL_MS = 2_000;

export async function killAndReplay(): Promise<ScenarioResult[]> {
  const dbName = 'olympe_faults_kill';
  await createDatabase(dbName);
  const check = openCheckDb(dbName);
  let server = await startServer({ port: PORT_A, dbName });
  const agent = keepAlive();
  try {
    const seeded = await seedAndStart();
    const kill = await killRun(seeded);
    const replay = await replayRun(seeded, kill.acks);
    return [kill.result, replay];
  } finally {
    agent.destroy();
    server.kill('SIGKILL');
    await check.close();
    await dropDatabase(dbName);
  }

  function seedAndStart() {
    return seedChapter(check.db, { pupils: PUPILS, exercises: 5, tag: 'kill' });
  }

  async function killRun(seeded: Awaited<ReturnType<typeof seedAndStart>>) {
    const c = new Checks();
    const { pupils, stats } = await startClass(seeded, () => server.base, agent, 20);

    const t0 = Date.now();
    const typing = Promise.all(pupils.map((p) => p.typeUntil(t0 + TYPE_MS, INTERVAL_MS)));
    await sleep(KILL_AT_MS);
    const acksBeforeKill = stats.acks.length;
    const firstPid = server.pid;
    const tKill = performance.now();
    server.kill('SIGKILL');
    const exit = await server.exited;
    server = await startServer({ port: PORT_A, dbName });
    const backMs = since(tKill);
    // Pages recovered: no page shows « Hors ligne » any more and saves flow again.
    let recoveredMs: number | null = null;
    const acksAtRestart = stats.acks.length;
    while (since(tKill) < 60_000) {
      if (stats.acks.length > acksAtRestart && pupils.every((p) => !p.offline())) {
        recoveredMs = since(tKill);
        break;
      }
      await sleep(50);
    }
    await typing;
    const { expected, stored } = await settleClass(c, check.db, seeded, pupils, stats);
    c.expect(exit.signal === 'SIGKILL', `the first server was not killed by SIGKILL (${JSON.stringify(exit)})`);
    c.expect(server.pid !== firstPid, 'the server was not restarted');
    c.expect(acksBeforeKill > 0, 'no save acknowledged before the kill');
    c.expect(recoveredMs !== null, 'some pages were still offline 60 s after the kill');
    const result: ScenarioResult = {
      name: 'kill -9 during autosave',
      pass: c.pass,
      figures:
        `${PUPILS} pupils; saves acknowledged ${stored.acknowledged}, found ${stored.found}, lost ${stored.lost}; ` +
        `server back ${secs(backMs)} after the kill, every page saving again after ${recoveredMs === null ? 'never' : secs(recoveredMs)}; ` +
        `current answer = last typed for ${expected.size - stored.wrongCurrent}/${expected.size}; responses: ${statusLine(stats)}`,
      notes: c.failed,
    };
    return { result, acks: stats.acks };
  }

  /** Empties the chapter's answers, then replays every acknowledged save three times (shuffled, 64 at a time). */
  async function replayRun(seeded: Awaited<ReturnType<typeof seedAndStart>>, acks: Ack[]): Promise<ScenarioResult> {
    const c = new Checks();
    const distinct = [...new Map(acks.map((a) => [`${a.userId}|${a.exerciseId}|${a.seq}`, a])).values()];
    const latest = new Map<string, { answer: string; seq: number }>();
    for (const a of distinct) {
      const key = `${a.userId}|${a.exerciseId}`;
      if ((latest.get(key)?.seq ?? -1) < a.seq) latest.set(key, { answer: a.answer, seq: a.seq });
    }
    const tokens = new Map(seeded.pupils.map((p) => [p.id, p.token]));
    await check.db.execute(sql`DELETE FROM answers WHERE exercise_id IN (SELECT id FROM exercises WHERE chapter_id = ${seeded.chapterId})`);
    const t0 = performance.now();
    let failures = 0;
    let wrongCurrentFlag = 0;
    let limited = 0;
    for (let pass = 1; pass <= 3; pass++) {
      await pool(shuffle(distinct), 64, async (a) => {
        const send = () =>
          call(server.base, 'POST', '/api/answer', {
            token: tokens.get(a.userId),
            body: { exerciseId: a.exerciseId, answer: a.answer, seq: a.seq },
            agent,
          });
        let res = await send();
        // A replay at test speed passes the per-pupil save limit (decision 39): as the page's queue does, the
        // refused save waits a second and is sent again.
        for (let retry = 0; res.status === 429 && retry < 10; retry++) {
          limited++;
          await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 500));
          res = await send();
        }
        if (res.status !== 200) failures++;
        else if (pass > 1 && res.json.duplicate !== true) failures++;
        // `current` is true only for the latest save (on later passes, where everything is stored).
        else if (pass > 1 && res.json.current !== (latest.get(`${a.userId}|${a.exerciseId}`)!.seq === a.seq)) wrongCurrentFlag++;
      });
      const stored = await checkStored(check.db, seeded.chapterId, distinct, latest);
      c.expect(stored.lost === 0, `pass ${pass}: ${stored.lost} saves missing`);
      c.expect(
        stored.rows === distinct.length,
        `pass ${pass}: ${stored.rows} rows for ${distinct.length} distinct saves (duplicates stored?)`,
      );
      c.expect(
        stored.wrongCurrent === 0,
        `pass ${pass}: ${stored.wrongCurrent} (pupil, exercise) whose current answer is not the highest seq`,
      );
    }
    // What the pupils' pages read back (GET /answer/chapter/{id}).
    let apiWrong = 0;
    await pool(seeded.pupils, 16, async (p) => {
      const res = await call(server.base, 'GET', `/api/answer/chapter/${seeded.chapterId}`, { token: p.token, agent });
      for (const a of (res.json ?? []) as Array<{ exercise: string; answer: string; seq: number }>) {
        const want = latest.get(`${p.id}|${a.exercise}`);
        if (!want || want.answer !== a.answer || want.seq !== Number(a.seq)) apiWrong++;
      }
    });
    const [{ n }] = await rows<{ n: string }>(
      check.db,
      sql`SELECT count(DISTINCT (user_id, exercise_id))::text AS n FROM answers WHERE exercise_id IN (SELECT id FROM exercises WHERE chapter_id = ${seeded.chapterId})`,
    );
    c.expect(failures === 0, `${failures} replayed saves not answered 200 (or not flagged duplicate)`);
    c.expect(wrongCurrentFlag === 0, `${wrongCurrentFlag} responses with a wrong \`current\` flag`);
    c.expect(apiWrong === 0, `${apiWrong} answers read back through the API differ from the highest seq`);
    c.expect(Number(n) === latest.size, `${n} (pupil, exercise) stored for ${latest.size} expected`);
    return {
      name: 'duplicate and out-of-order replay',
      pass: c.pass,
      figures:
        `${distinct.length} saves × 3 passes shuffled (64 concurrent) = ${distinct.length * 3} requests in ${secs(since(t0))}; ` +
        `latest by seq wins for ${latest.size}/${latest.size} (pupil, exercise) after every pass; rows stored = distinct saves; ` +
        `${limited} sent again after a 429 (per-pupil save limit)`,
      notes: c.failed,
    };
  }
}
