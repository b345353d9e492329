/**
 * Hostile PDFs against the real server (bench/pdf-bombs/README.md). The server runs in its own
 * process (server/src/main.ts, as in production, embedded PGlite in a fresh data dir) and this
 * process uploads over loopback HTTP while asking GET /api/health every 20 ms:
 *   1. quiet: health alone, then the 400-page scan alone;
 *   2. storm: four 4 MB bombs (object streams inflating to 4 GB each) and the 400-page scan at once;
 *   3. reading: the scan filed for sorting, its 400 pages read by the decode job (PDF worker).
 * Reports health p50/p99/max, the server's peak RSS (/proc/<pid>/status), each upload's answer
 * and time, and writes the whole result as JSON under bench/pdf-bombs/results/.
 *
 *   npm run bench:bombs
 *   BOMBS_PORT=3201 BOMBS_COUNT=4 BOMBS_MB=4096 BOMBS_SCAN_PAGES=400 BOMBS_READ=0 (skip phase 3)
 *   BOMBS_CPU_PROF=<dir> (the server's threads write .cpuprofile files there)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';
import { createTokenSigner } from '../../server/src/auth/tokens.js';
import { openDatabase } from '../../server/src/db/client.js';
import { chapters, groupMembers, institutions, TEACHERS_GROUP_ID, users } from '../../server/src/db/schema.js';
import { objStmBomb } from '../../server/test/fixtures/pdf-bombs.js';
import { processMemory, stopServer, waitForHealth } from '../lib/server.js';
import { latencyStats, pollHealth } from '../lib/health.js';

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, '../..');
const PORT = Number(env.BOMBS_PORT ?? 3201);
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = 'bombs-secret-bombs-secret-bombs-secret';
const BOMBS = Number(env.BOMBS_COUNT ?? 4);
/** Inflated size of each bomb: 4096 MiB is a 4.1 MB file. */
const BOMB_MB = Number(env.BOMBS_MB ?? 4096);
const SCAN_PAGES = Number(env.BOMBS_SCAN_PAGES ?? 400);
const READ = env.BOMBS_READ !== '0';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;

// ---------------------------------------------------------------- inputs

/** A greyscale page picture (ruled paper, ink noise), about 60 kB of JPEG (a 400-page scan fits the default 30 MB limit). */
function pagePicture(width = 620, height = 877): Buffer {
  const data = Buffer.alloc(width * height * 4);
  let s = 12345;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let y = 0; y < height; y++) {
    const ink = y % 24 < 3 && y > 60 && y < height - 60;
    for (let x = 0; x < width; x++) {
      const v = ink && rand() < 0.6 ? 40 + rand() * 60 : 230 + rand() * 20;
      const i = (y * width + x) * 4;
      data[i] = data[i + 1] = data[i + 2] = v;
      data[i + 3] = 255;
    }
  }
  return jpeg.encode({ data, width, height }, 35).data;
}

/** A scanner-like PDF: one JPEG per page, each page its own copy of the picture, as a copier writes. */
async function scanPdf(pages: number): Promise<Buffer> {
  const picture = pagePicture();
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawImage(await doc.embedJpg(picture), { x: 0, y: 0, width: 595, height: 842 });
    page.drawText(`Copie ${i + 1}`, { x: 40, y: 800, size: 14, font, color: rgb(0.1, 0.1, 0.3) });
  }
  return Buffer.from(await doc.save());
}

// ---------------------------------------------------------------- server

interface Seeded {
  token: string;
  chapterId: string;
}

/** A school, a paper chapter and a teacher, written before the server opens the data dir. */
async function seed(dataDir: string): Promise<Seeded> {
  const database = await openDatabase({ dataDir });
  await database.migrate();
  const db = database.db;
  const [{ id: institutionId }] = await db.insert(institutions).values({ name: 'Collège du banc d’essai' }).returning();
  const [{ id: chapterId }] = await db.insert(chapters).values({ title: 'Coupe papier (banc)', offline: true }).returning();
  const [teacher] = await db
    .insert(users)
    .values({ email: 'prof@banc.test', passwordHash: 'x', firstName: 'Ada', lastName: 'Lovelace', institutionId })
    .returning({ id: users.id, tokenVersion: users.tokenVersion });
  await db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: teacher.id });
  await database.close();
  const token = await createTokenSigner(SECRET).sign({ userId: teacher.id, tokenVersion: teacher.tokenVersion });
  return { token, chapterId };
}

interface Server {
  child: ChildProcess;
  /** Lines of the server's JSON log. */
  log: string[];
}

function startServer(dataDir: string): Server {
  const profile = env.BOMBS_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(env.BOMBS_CPU_PROF)] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, JWT_SECRET: SECRET, PUBLIC_URL: BASE, LOG_LEVEL: 'info' },
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

// ---------------------------------------------------------------- measurement

interface HealthStats {
  polls: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
  peakRssMb: number;
}

/** Asks /api/health every 20 ms (and samples the server's RSS) until `work` settles. */
async function polling<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; health: HealthStats }> {
  let peakRss = 0;
  const poller = pollHealth(BASE, 20, () => {
    peakRss = Math.max(peakRss, processMemory(pid).rssMb);
  });
  const result = await work();
  await poller.stop();
  const { n, p50, p99, max } = latencyStats(poller.latencies);
  return { result, health: { polls: n, p50, p99, max, failed: poller.failed, peakRssMb: peakRss } };
}

interface Upload {
  name: string;
  sizeMb: number;
  status: number;
  ms: number;
  message?: string;
  path?: string;
}

async function upload(seeded: Seeded, name: string, bytes: Buffer, startedAt: number): Promise<Upload> {
  const form = new FormData();
  form.set('chapter', seeded.chapterId);
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), `${name}.pdf`);
  const res = await fetch(`${BASE}/api/pdfs`, { method: 'POST', body: form, headers: { authorization: `Bearer ${seeded.token}` } });
  const body = (await res.json()) as { message?: string; path?: string };
  return {
    name,
    sizeMb: round(bytes.length / 1e6, 1),
    status: res.status,
    ms: round(performance.now() - startedAt),
    message: body.message,
    path: body.path,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-bombs-'));
  console.log(`Préparation : ${BOMBS} bombes de ${BOMB_MB} Mio décompressés, scan de ${SCAN_PAGES} pages…`);
  const bomb = objStmBomb(BOMB_MB);
  const scan = await scanPdf(SCAN_PAGES);
  console.log(`bombe : ${round(bomb.length / 1e6, 2)} Mo ; scan : ${round(scan.length / 1e6, 1)} Mo`);
  const seeded = await seed(dataDir);
  if (
    await fetch(`${BASE}/api/health`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`Le port ${PORT} est déjà pris : choisissez BOMBS_PORT.`);
  const server = startServer(dataDir);
  const pid = server.child.pid!;
  try {
    await waitForHealth(BASE);
    const startRss = processMemory(pid);
    console.log(`serveur prêt (pid ${pid}, RSS ${startRss.rssMb} Mo)`);

    const quiet = await polling(pid, () => sleep(5000));
    console.log('calme, santé seule', quiet.health);
    const scanAlone = await polling(pid, () => upload(seeded, 'scan-seul', scan, performance.now()));
    console.log('calme, scan seul', scanAlone.result.status, scanAlone.result.ms, 'ms', scanAlone.health);

    const stormStart = performance.now();
    const storm = await polling(pid, () =>
      Promise.all([
        ...Array.from({ length: BOMBS }, (_, i) => upload(seeded, `bombe-${i + 1}`, bomb, stormStart)),
        upload(seeded, 'scan', scan, stormStart),
      ]),
    );
    for (const u of storm.result) console.log(`  ${u.name} (${u.sizeMb} Mo) : ${u.status} en ${u.ms} ms ${u.message ?? ''}`);
    console.log('tempête', storm.health);

    let reading: { ms: number | null; pages?: number; health: HealthStats } | null = null;
    const scanPath = storm.result.find((u) => u.name === 'scan')?.path;
    if (READ && scanPath) {
      const res = await fetch(`${BASE}/api/answer/unlabeled/${seeded.chapterId}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ answer: scanPath }),
      });
      if (res.status !== 201) throw new Error(`dépôt du scan : ${res.status} ${await res.text()}`);
      const started = performance.now();
      const read = await polling(pid, async () => {
        // The job's log line ("job done") is flushed by the server every few hundred ms.
        for (;;) {
          const line = server.log.find((l) => l.includes('"job done"') || l.includes('"job failed"'));
          if (line) return JSON.parse(line) as { ms?: number };
          if (performance.now() - started > 20 * 60_000) return null;
          await sleep(200);
        }
      });
      reading = { ms: read.result?.ms ?? null, pages: SCAN_PAGES, health: read.health };
      console.log('lecture du scan', reading);
    }

    const end = processMemory(pid);
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.availableParallelism(),
      loadAverage: os.loadavg().map((l) => round(l, 1)),
      bombFileMb: round(bomb.length / 1e6, 2),
      bombInflatedMb: BOMB_MB,
      scanMb: round(scan.length / 1e6, 1),
      scanPages: SCAN_PAGES,
      serverRssAtStartMb: startRss.rssMb,
      quiet: quiet.health,
      scanAlone: { ...scanAlone.result, health: scanAlone.health },
      storm: { uploads: storm.result, health: storm.health },
      reading,
      serverVmHwmMb: end.hwmMb,
      serverVmRssAtEndMb: end.rssMb,
    };
    const dir = path.join(import.meta.dirname, 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${result.date.slice(0, 16).replace(':', '')}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
    console.log(`VmHWM ${end.hwmMb} Mo, VmRSS ${end.rssMb} Mo ; résultat : ${path.relative(ROOT, file)}`);
  } finally {
    await stopServer(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
