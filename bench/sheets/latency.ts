/**
 * `node --import tsx bench/sheets/latency.ts`: the API's latency while the decode job reads a
 * 400-page scan (issue 23). The server runs in its own process (server/src/main.ts, embedded
 * PGlite in a fresh data dir, job worker on); this process asks GET /api/health every 20 ms and
 * has a pupil save a numeric answer (POST /api/answer) every 100 ms, first with nothing else
 * going on, then while the scan is read. The scan is the worst case for the reader: CCITT G4
 * pages (made with ImageMagick + tiff2pdf), none of which ZXing can read from the embedded
 * picture, so each page goes to the renderer (pdftoppm), one in five with its code torn off.
 * Knobs: LATENCY_PORT (4105), LATENCY_PAGES (400), LATENCY_QUIET_MS (10000).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { createTokenSigner } from '../../server/src/auth/tokens.js';
import { openDatabase } from '../../server/src/db/client.js';
import { accessGroups, centerRegistrations, centers, chapters, exercises, groupMembers, institutions, statementVersions, TEACHERS_GROUP_ID, users } from '../../server/src/db/schema.js';
import { copierScan } from '../../server/test/fixtures/copier-scan.js';
import { renderAnswerSheets } from '../../server/src/sheets/render.js';
import { latencyStats, pollHealth } from '../lib/health.js';

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, '../..');
const PORT = Number(env.LATENCY_PORT ?? 4105);
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = 'latency-secret-latency-secret-latency';
const PAGES = Number(env.LATENCY_PAGES ?? 400);
const QUIET_MS = Number(env.LATENCY_QUIET_MS ?? 10_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;

interface Seeded {
  teacher: string;
  pupil: string;
  paperId: string;
  onlineId: string;
  exerciseId: string;
  sheets: Uint8Array;
}

async function seed(dataDir: string): Promise<Seeded> {
  const database = await openDatabase({ dataDir });
  await database.migrate();
  const db = database.db;
  const [school] = await db.insert(institutions).values({ name: 'Collège du banc' }).returning();
  const [paper] = await db.insert(chapters).values({ title: 'Coupe papier (banc)', offline: true }).returning();
  const [paperEx] = await db.insert(exercises).values({ chapterId: paper.id, position: 0, title: 'Géométrie', answerFormat: 'pdf' }).returning();
  const [online] = await db.insert(chapters).values({ title: 'Coupe en ligne (banc)' }).returning();
  await db.insert(accessGroups).values({ chapterId: online.id, position: 0, timeDuration: 600, accessStart: new Date(Date.now() - 60_000) });
  const [ex] = await db.insert(exercises).values({ chapterId: online.id, position: 0, title: 'Calcul', answerFormat: 'numeric' }).returning();
  await db.insert(statementVersions).values({ exerciseId: ex.id, position: 0, content: 'Calculez $1 + 41$.', answer: '42' });
  const [teacher] = await db.insert(users).values({ email: 'prof@banc.test', passwordHash: 'x', firstName: 'Ada', lastName: 'Lovelace', institutionId: school.id }).returning();
  await db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: teacher.id });
  const pupilRows = await db
    .insert(users)
    .values(
      Array.from({ length: 20 }, (_, i) => ({
        email: `eleve${i}@banc.test`,
        passwordHash: 'x',
        firstName: 'Élève',
        lastName: `N${String(i).padStart(2, '0')}`,
        gender: 'female',
        birthDate: '2010-01-01',
        grade: '3eme',
        defaultChoice: 'local',
        emailParent: 'parent@banc.test',
        institutionId: school.id,
      })),
    )
    .returning();
  await db.insert(centers).values({ chapterId: paper.id, institutionId: school.id, opened: true });
  await db.insert(centerRegistrations).values(pupilRows.map((p) => ({ chapterId: paper.id, userId: p.id, institutionId: school.id })));
  await database.close();
  const signer = createTokenSigner(SECRET);
  const sheets = await renderAnswerSheets({
    secret: SECRET,
    chapter: { id: paper.id, title: paper.title },
    centreName: school.name,
    exercises: [{ id: paperEx.id, title: paperEx.title }],
    pupils: pupilRows.map((p) => ({ id: p.id, firstName: p.firstName ?? '', lastName: p.lastName ?? '' })),
    spare: 3,
  });
  return {
    teacher: await signer.sign({ userId: teacher.id, tokenVersion: teacher.tokenVersion }),
    pupil: await signer.sign({ userId: pupilRows[0].id, tokenVersion: pupilRows[0].tokenVersion }),
    paperId: paper.id,
    onlineId: online.id,
    exerciseId: ex.id,
    sheets,
  };
}

/** 400 pages: 20 distinct G4 pages (20 pupils' sheets: 5 pages each, 4 of them) repeated. */
async function scanOf(sheets: Uint8Array): Promise<Buffer> {
  const turns = [0, 90, 180, 270] as const;
  const made = await copierScan(
    sheets,
    Array.from({ length: 20 }, (_, i) => ({ page: i, turn: turns[i % 4], noise: 0.2, torn: i % 5 === 4 })),
    'g4',
    { noise: 0.3, blur: 0.4 },
  );
  const src = await PDFDocument.load(made);
  const doc = await PDFDocument.create();
  for (let i = 0; i < PAGES; i += 20) {
    for (const p of await doc.copyPages(src, Array.from({ length: Math.min(20, PAGES - i) }, (_, k) => k))) doc.addPage(p);
  }
  return Buffer.from(await doc.save());
}

function startServer(dataDir: string): { child: ChildProcess; log: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, JWT_SECRET: SECRET, PUBLIC_URL: BASE, LOG_LEVEL: 'info', JOBS_WORKER: 'on' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  let rest = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop() ?? '';
    log.push(...lines);
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[server] ${d}`));
  return { child, log };
}

const stats = latencyStats;

/** Health every 20 ms and a save every 100 ms until `work` settles. */
async function measure<T>(seeded: Seeded, work: () => Promise<T>) {
  const poller = pollHealth(BASE);
  const health = poller.latencies;
  const saves: number[] = [];
  const failures: string[] = [];
  let done = false;
  let seq = Date.now();
  const saveLoop = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${BASE}/api/answer`, {
        method: 'POST',
        headers: { authorization: `Bearer ${seeded.pupil}`, 'content-type': 'application/json' },
        body: JSON.stringify({ exerciseId: seeded.exerciseId, answer: String(seq % 1000), seq: ++seq }),
      });
      const body = await res.text();
      if (res.status !== 200) failures.push(`${res.status} ${body.slice(0, 120)}`);
      saves.push(performance.now() - t0);
      await sleep(100);
    }
  })();
  // On a loaded machine a reading takes long: the figures so far, every 30 s.
  const t0 = performance.now();
  const interim = setInterval(() => {
    console.log(`  ${round((performance.now() - t0) / 1000)} s: health ${JSON.stringify(stats(health))}, save ${JSON.stringify(stats(saves))}, failures ${failures.length}`);
  }, 30_000);
  const result = await work();
  clearInterval(interim);
  done = true;
  await Promise.all([poller.stop(), saveLoop]);
  return { result, health: stats(health), save: stats(saves), saveFailures: failures.length, firstFailure: failures[0] };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-latency-'));
  const seeded = await seed(dataDir);
  console.log(`making a ${PAGES}-page G4 scan…`);
  const scan = await scanOf(seeded.sheets);
  console.log(`scan: ${round(scan.length / 1e6, 1)} MB`);
  const server = startServer(dataDir);
  try {
    for (let i = 0; ; i++) {
      if (await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)) break;
      if (i > 3000) throw new Error('server not answering');
      await sleep(100);
    }
    const start = await fetch(`${BASE}/api/chapter/start/${seeded.onlineId}`, { method: 'POST', headers: { authorization: `Bearer ${seeded.pupil}` } });
    if (!start.ok) throw new Error(`start: ${start.status} ${await start.text()}`);

    const quiet = await measure(seeded, () => sleep(QUIET_MS));
    console.log('quiet', JSON.stringify(quiet));

    const form = new FormData();
    form.set('chapter', seeded.paperId);
    form.set('file', new Blob([new Uint8Array(scan)], { type: 'application/pdf' }), 'salle-400.pdf');
    const up = await fetch(`${BASE}/api/pdfs`, { method: 'POST', body: form, headers: { authorization: `Bearer ${seeded.teacher}` } });
    const upBody = (await up.json()) as { path?: string; message?: string };
    if (!upBody.path) throw new Error(`upload: ${up.status} ${upBody.message}`);
    const filed = await fetch(`${BASE}/api/answer/unlabeled/${seeded.paperId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeded.teacher}`, 'content-type': 'application/json' },
      body: JSON.stringify({ answer: upBody.path }),
    });
    if (filed.status !== 201) throw new Error(`filing: ${filed.status} ${await filed.text()}`);
    const started = performance.now();
    const reading = await measure(seeded, async () => {
      for (;;) {
        const line = server.log.find((l) => l.includes('"job done"') || l.includes('"job failed"'));
        if (line) return { wallS: round((performance.now() - started) / 1000, 1), line: line.slice(0, 600) };
        if (performance.now() - started > 60 * 60_000) return null;
        await sleep(250);
      }
    });
    console.log('reading', JSON.stringify(reading));
    console.log(`load average ${os.loadavg().map((l) => round(l, 1)).join(' ')}`);
  } finally {
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGTERM');
    await Promise.race([exited, sleep(30_000)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
