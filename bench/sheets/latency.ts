/**
 * `node --import tsx bench/sheets/latency.ts`: the API's latency while the decode job reads a
 * 400-page scan (decision 57). The server runs in its own process (server/src/main.ts, embedded
 * PGlite in a fresh data dir, job worker on); this process asks GET /api/health every 20 ms and
 * has a pupil save a numeric answer (POST /api/answer) every 100 ms, first with nothing else
 * going on, then while the scan is uploaded (resumable, 5 MB chunks, decision 91), then while it is read. The scan is the worst case for the reader: CCITT G4
 * pages (made with ImageMagick + tiff2pdf), none of which ZXing can read from the embedded
 * picture, so each page goes to the renderer (pdftoppm), one in five with its code torn off.
 * Knobs: LATENCY_PORT (4105), LATENCY_PAGES (400), LATENCY_QUIET_MS (10000), LATENCY_SCAN (g4, or jpeg:
 * a 189 MB scan of 470 kB pages, about the biggest MAX_SCAN_MB takes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import jpeg from 'jpeg-js';
import { createTokenSigner } from '../../server/src/auth/tokens.js';
import { openDatabase } from '../../server/src/db/client.js';
import {
  accessGroups,
  centerRegistrations,
  centers,
  chapters,
  exercises,
  groupMembers,
  institutions,
  statementVersions,
  TEACHERS_GROUP_ID,
  users,
} from '../../server/src/db/schema.js';
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
/** g4 (default): every page rendered by pdftoppm, the reader's worst case; jpeg: a 189 MB scan, the upload's worst case. */
const KIND = env.LATENCY_SCAN === 'jpeg' ? 'jpeg' : 'g4';
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
  const [paperEx] = await db
    .insert(exercises)
    .values({ chapterId: paper.id, position: 0, title: 'Géométrie', answerFormat: 'pdf' })
    .returning();
  const [online] = await db.insert(chapters).values({ title: 'Coupe en ligne (banc)' }).returning();
  await db
    .insert(accessGroups)
    .values({ chapterId: online.id, position: 0, timeDuration: 600, accessStart: new Date(Date.now() - 60_000) });
  const [ex] = await db
    .insert(exercises)
    .values({ chapterId: online.id, position: 0, title: 'Calcul', answerFormat: 'numeric' })
    .returning();
  await db.insert(statementVersions).values({ exerciseId: ex.id, position: 0, content: 'Calculez $1 + 41$.', answer: '42' });
  const [teacher] = await db
    .insert(users)
    .values({ email: 'prof@banc.test', passwordHash: 'x', firstName: 'Ada', lastName: 'Lovelace', institutionId: school.id })
    .returning();
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

/**
 * LATENCY_SCAN=jpeg: about the biggest scan the form takes (MAX_SCAN_MB, 200 Mo): one greyscale JPEG of
 * 470 kB per page (1,240 × 1,754 px, A4 at 150 dpi, speckled), each page its own copy, as a copier
 * writes — 189 MB for 400 pages. No code on them: the reader tries every page and leaves it unread.
 */
function bigJpegScan(pages: number): Promise<Buffer> {
  const width = 1240;
  const height = 1754;
  const data = Buffer.alloc(width * height * 4);
  let seed = 12345;
  const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let i = 0; i < width * height; i++) {
    const v = rand() < 0.1 ? 40 + rand() * 200 : 230 + rand() * 20;
    data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = v;
    data[i * 4 + 3] = 255;
  }
  const picture = jpeg.encode({ data, width, height }, 32).data;
  return (async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < pages; i++) {
      const page = doc.addPage([595, 842]);
      page.drawImage(await doc.embedJpg(picture), { x: 0, y: 0, width: 595, height: 842 });
    }
    return Buffer.from(await doc.save());
  })();
}

/** Peak and current resident memory of a process (/proc/<pid>/status), MB. */
function memoryOf(pid: number): { hwmMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { hwmMb: round(kb('VmHWM') / 1024), rssMb: round(kb('VmRSS') / 1024) };
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
    for (const p of await doc.copyPages(
      src,
      Array.from({ length: Math.min(20, PAGES - i) }, (_, k) => k),
    ))
      doc.addPage(p);
  }
  return Buffer.from(await doc.save());
}

function startServer(dataDir: string): { child: ChildProcess; log: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      PUBLIC_URL: BASE,
      LOG_LEVEL: 'info',
      JOBS_WORKER: 'on',
    },
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
    console.log(
      `  ${round((performance.now() - t0) / 1000)} s: health ${JSON.stringify(stats(health))}, save ${JSON.stringify(stats(saves))}, failures ${failures.length}`,
    );
  }, 30_000);
  const result = await work();
  clearInterval(interim);
  done = true;
  await Promise.all([poller.stop(), saveLoop]);
  return { result, health: stats(health), save: stats(saves), saveFailures: failures.length, firstFailure: failures[0] };
}

const CHUNK = 5 * 1024 * 1024;

/** The tus 1.0 requests of the scans form (POST /api/uploads, then PATCH chunks); the stored path and the time. */
async function sendResumable(token: string, chapterId: string, bytes: Buffer): Promise<{ path: string; ms: number }> {
  const t0 = performance.now();
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const headers = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
  const created = await fetch(`${BASE}/api/uploads`, {
    method: 'POST',
    headers: {
      ...headers,
      'upload-length': String(bytes.length),
      'upload-metadata': `chapter ${b64(chapterId)},filename ${b64('salle-400.pdf')}`,
    },
  });
  const url = created.headers.get('location');
  if (created.status !== 201 || !url) throw new Error(`upload: ${created.status} ${await created.text()}`);
  let offset = 0;
  for (;;) {
    const res = await fetch(`${BASE}${url}`, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: new Uint8Array(bytes.subarray(offset, offset + CHUNK)),
    });
    const body = await res.text();
    if (res.status >= 300) throw new Error(`upload at ${offset}: ${res.status} ${body}`);
    offset = Number(res.headers.get('upload-offset'));
    if (offset >= bytes.length) return { path: (JSON.parse(body) as { path: string }).path, ms: round(performance.now() - t0) };
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-latency-'));
  const seeded = await seed(dataDir);
  console.log(`making a ${PAGES}-page ${KIND === 'jpeg' ? 'JPEG' : 'G4'} scan…`);
  const scan = KIND === 'jpeg' ? await bigJpegScan(PAGES) : await scanOf(seeded.sheets);
  console.log(`scan: ${round(scan.length / 1e6, 1)} MB`);
  const server = startServer(dataDir);
  try {
    for (let i = 0; ; i++) {
      if (
        await fetch(`${BASE}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (i > 3000) throw new Error('server not answering');
      await sleep(100);
    }
    const start = await fetch(`${BASE}/api/chapter/start/${seeded.onlineId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeded.pupil}` },
    });
    if (!start.ok) throw new Error(`start: ${start.status} ${await start.text()}`);

    const quiet = await measure(seeded, () => sleep(QUIET_MS));
    console.log('quiet', JSON.stringify(quiet));

    // Sent as the scans form sends it (decision 91): a resumable upload in 5 MB chunks; the last one
    // runs the upload check (pages, SHA-256) in the PDF worker.
    const uploading = await measure(seeded, () => sendResumable(seeded.teacher, seeded.paperId, scan));
    console.log('upload', JSON.stringify(uploading), 'server memory', JSON.stringify(memoryOf(server.child.pid!)));
    const filed = await fetch(`${BASE}/api/answer/unlabeled/${seeded.paperId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeded.teacher}`, 'content-type': 'application/json' },
      body: JSON.stringify({ answer: uploading.result.path }),
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
    console.log(
      `server memory ${JSON.stringify(memoryOf(server.child.pid!))}; load average ${os
        .loadavg()
        .map((l) => round(l, 1))
        .join(' ')}`,
    );
  } finally {
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGTERM');
    await Promise.race([exited, sleep(30_000)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
