/**
 * PostgreSQL stopped for 20 s while pupils autosave: the API answers 503 with the French message
 * (no hang, no crash, no 500), recovers without a restart, and loses nothing acknowledged.
 */
import {
  call,
  canControlPostgres,
  Checks,
  createDatabase,
  dropDatabase,
  keepAlive,
  openCheckDb,
  pgStart,
  pgStop,
  PORT_A,
  secs,
  seedChapter,
  since,
  sleep,
  startServer,
  UNAVAILABLE_MESSAGE,
  type ScenarioResult,
} from '../harness.js';
import { settleClass, startClass, statusLine } from '../pupils.js';

const PUPILS = 50;
const STOP_MS = Number(process.env.FAULTS_PG_STOP_S ?? 20) * 1000;
/** A request slower than this during the outage counts as a hang. */
const HANG_MS = 5_000;

interface Probe {
  at: number;
  status: number;
  ms: number;
  message?: string;
  error?: string;
}

export async function postgresStop(): Promise<ScenarioResult> {
  if (!canControlPostgres()) return { name: 'PostgreSQL stopped 20 s', pass: false, figures: 'skipped', notes: ['no /etc/postgresql'] };
  const dbName = 'olympe_faults_pgstop';
  await createDatabase(dbName);
  const check = openCheckDb(dbName);
  const server = await startServer({ port: PORT_A, dbName });
  const agent = keepAlive();
  const c = new Checks();
  try {
    const seeded = await seedChapter(check.db, { pupils: PUPILS, exercises: 5, tag: 'pgstop' });
    const { pupils, stats } = await startClass(seeded, () => server.base, agent, 10);

    // A probe reads the page's answers every 200 ms (its own connection each time), for the whole run.
    const t0 = performance.now();
    const probes: Probe[] = [];
    let probing = true;
    const probeLoop = (async () => {
      while (probing) {
        const at = since(t0);
        const res = await call(server.base, 'GET', `/api/answer/chapter/${seeded.chapterId}`, {
          token: seeded.pupils[0].token,
          timeoutMs: 15_000,
        });
        probes.push({ at, status: res.status, ms: res.ms, message: res.json?.message, error: res.error });
        await sleep(200);
      }
    })();
    const typingUntil = Date.now() + 4_000 + STOP_MS + 8_000;
    const typing = Promise.all(pupils.map((p) => p.typeUntil(typingUntil, 2_000)));

    await sleep(4_000);
    const acksBefore = stats.acks.length;
    const tStop = since(t0);
    let tStopped = 0;
    let tStart = 0;
    let tReady = 0;
    try {
      await pgStop();
      tStopped = since(t0);
      await sleep(STOP_MS);
    } finally {
      tStart = since(t0);
      await pgStart();
      tReady = since(t0);
    }
    // Recovered: the first probe answered 200 after the start command; pages: none shows « Hors ligne ».
    const acksAtStart = stats.acks.length;
    let recovered: number | null = null;
    let pagesRecovered: number | null = null;
    while (since(t0) < tReady + 30_000 && (recovered === null || pagesRecovered === null)) {
      const ok = probes.find((p) => p.at >= tStart && p.status === 200);
      if (ok && recovered === null) recovered = ok.at + ok.ms - tStart;
      if (pagesRecovered === null && stats.acks.length > acksAtStart && pupils.every((p) => !p.offline()))
        pagesRecovered = since(t0) - tStart;
      await sleep(50);
    }
    await typing;
    const { drainMs, stored } = await settleClass(c, check.db, seeded, pupils, stats);
    probing = false;
    await probeLoop;

    // While PostgreSQL was down (from the end of its shutdown to the start command).
    const during = probes.filter((p) => p.at >= tStopped && p.at + p.ms <= tStart);
    const count = (f: (p: Probe) => boolean) => during.filter(f).length;
    const n503 = count((p) => p.status === 503);
    const french = count((p) => p.status === 503 && p.message === UNAVAILABLE_MESSAGE);
    const others = during.filter((p) => p.status !== 503).map((p) => `${p.status || p.error}`);
    const slowest = Math.max(0, ...during.map((p) => p.ms));

    c.expect(server.alive(), `the server process died: ${server.output().slice(-500)}`);
    c.expect(during.length >= 10, `only ${during.length} probes during the outage`);
    c.expect(n503 === during.length, `during the outage, answers other than 503: ${[...new Set(others)].join(', ')}`);
    c.expect(french === n503, `${n503 - french} 503 answers without the French message`);
    c.expect(stats.badMessages.length === 0, `saves answered 503 without the French message: ${stats.badMessages.slice(0, 2).join(' | ')}`);
    c.expect(slowest < HANG_MS, `a request took ${Math.round(slowest)} ms during the outage (hang)`);
    c.expect(recovered !== null && recovered < 15_000, `the API did not answer 200 within 15 s of the start command (${recovered})`);
    c.expect(pagesRecovered !== null, 'some pages were still offline 30 s after PostgreSQL was back');
    c.expect(acksBefore > 0, 'no save acknowledged before the stop');
    c.expect(!stats.statuses.has('500'), `${stats.statuses.get('500')} saves answered 500`);
    return {
      name: 'PostgreSQL stopped 20 s',
      pass: c.pass,
      figures:
        `stop took ${secs(tStopped - tStop)}, down ${secs(tStart - tStopped)}, start took ${secs(tReady - tStart)}; ` +
        `probes during the outage: ${during.length}, all 503: ${n503} (French ${french}), slowest ${Math.round(slowest)} ms; ` +
        `after the start command: API answering 200 in ${recovered === null ? 'never' : secs(recovered)} (same process), ` +
        `every page saving again in ${pagesRecovered === null ? 'never' : secs(pagesRecovered)}; ` +
        `${PUPILS} pupils: saves acknowledged ${stored.acknowledged}, found ${stored.found}, lost ${stored.lost}; ` +
        `pages drained ${drainMs === null ? 'never' : secs(drainMs)} after typing stopped; save responses: ${statusLine(stats)}`,
      notes: c.failed,
    };
  } finally {
    await pgStart();
    agent.destroy();
    server.kill('SIGKILL');
    await check.close();
    await dropDatabase(dbName);
  }
}
