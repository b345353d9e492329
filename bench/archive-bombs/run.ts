/**
 * XLSX bombs against the real server (bench/archive-bombs/README.md, decision 132). The server runs in
 * its own process (server/src/main.ts, as in production, embedded PGlite in a fresh data dir) and this
 * process sends pupils' files to POST /api/users/import (preview) as a teacher, over loopback HTTP,
 * while asking GET /api/health every 20 ms and sampling the server's RSS (/proc/<pid>/status):
 *   1. quiet: health alone, then a real workbook alone (the first import starts the pool's threads);
 *   2. storm: eight 5 MB XLSX bombs (a sheet inflating to ~5 GB each) at once;
 *   3. after: a real workbook again.
 * Reports health p50/p99/max, the server's peak RSS, each answer and its time, and writes the whole
 * result as JSON under bench/archive-bombs/results/.
 *
 *   npm run bench:archive-bombs
 *   ARCHIVE_BOMBS_PORT=3202 ARCHIVE_BOMBS_COUNT=8 ARCHIVE_BOMBS_MIB=5000
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import writeXlsxFile from 'write-excel-file/node';
import { createTokenSigner } from '../../server/src/auth/tokens.js';
import { openDatabase } from '../../server/src/db/client.js';
import { groupMembers, institutions, TEACHERS_GROUP_ID, users } from '../../server/src/db/schema.js';
import { xlsxBomb } from '../../server/test/fixtures/zip-bombs.js';
import { processMemory, stopServer, waitForHealth } from '../lib/server.js';
import { latencyStats, pollHealth } from '../lib/health.js';

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, '../..');
const PORT = Number(env.ARCHIVE_BOMBS_PORT ?? 3202);
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = 'archive-bombs-secret-archive-bombs-secret';
const BOMBS = Number(env.ARCHIVE_BOMBS_COUNT ?? 8);
/** What each bomb's sheet inflates to: 5000 MiB is a 5 MB file (the import's limit, IMPORT_MAX_BYTES). */
const BOMB_MIB = Number(env.ARCHIVE_BOMBS_MIB ?? 5000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;

/** A school and a teacher, written before the server opens the data dir. */
async function seed(dataDir: string): Promise<string> {
  const database = await openDatabase({ dataDir });
  await database.migrate();
  const db = database.db;
  const [{ id: institutionId }] = await db.insert(institutions).values({ name: 'Collège du banc d’essai' }).returning();
  const [teacher] = await db
    .insert(users)
    .values({ email: 'prof@banc.test', passwordHash: 'x', firstName: 'Ada', lastName: 'Lovelace', institutionId })
    .returning({ id: users.id, tokenVersion: users.tokenVersion });
  await db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: teacher.id });
  await database.close();
  return createTokenSigner(SECRET).sign({ userId: teacher.id, tokenVersion: teacher.tokenVersion });
}

function startServer(dataDir: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, JWT_SECRET: SECRET, PUBLIC_URL: BASE, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[server] ${d}`));
  return child;
}

/** Asks /api/health every 20 ms (and samples the server's RSS) until `work` settles. */
async function polling<T>(pid: number, work: () => Promise<T>) {
  let peakRssMb = 0;
  const poller = pollHealth(BASE, 20, () => {
    peakRssMb = Math.max(peakRssMb, processMemory(pid).rssMb);
  });
  const result = await work();
  await poller.stop();
  return { result, health: { ...latencyStats(poller.latencies), failed: poller.failed, peakRssMb } };
}

async function importFile(token: string, name: string, bytes: Buffer, startedAt: number) {
  const form = new FormData();
  form.set('preview', 'true');
  form.set('file', new Blob([new Uint8Array(bytes)]), `${name}.xlsx`);
  const res = await fetch(`${BASE}/api/users/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { message?: string; created?: number };
  return {
    name,
    sizeMb: round(bytes.length / 1e6, 2),
    status: res.status,
    ms: round(performance.now() - startedAt),
    message: body.message,
    created: body.created,
  };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-archive-bombs-'));
  console.log(`Préparation : ${BOMBS} bombes XLSX de ${BOMB_MIB} Mio décompressés…`);
  const bomb = xlsxBomb(BOMB_MIB);
  const workbook = Buffer.from(
    await writeXlsxFile([
      ['E-mail', 'Prénom', 'Nom', 'Date de naissance', 'Classe', 'Genre'].map((value) => ({ value })),
      ...Array.from({ length: 300 }, (_, i) =>
        [`eleve${i}@banc.test`, 'Élève', `N°${i}`, '12/05/2011', '3e', i % 2 ? 'F' : 'M'].map((value) => ({ value })),
      ),
    ]).toBuffer(),
  );
  console.log(`bombe : ${round(bomb.length / 1e6, 2)} Mo ; classeur : ${round(workbook.length / 1e3)} ko`);
  const token = await seed(dataDir);
  if (
    await fetch(`${BASE}/api/health`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`Le port ${PORT} est déjà pris : choisissez ARCHIVE_BOMBS_PORT.`);
  const child = startServer(dataDir);
  const pid = child.pid!;
  try {
    await waitForHealth(BASE);
    const startRss = processMemory(pid);
    console.log(`serveur prêt (pid ${pid}, RSS ${startRss.rssMb} Mo)`);
    const quiet = await polling(pid, () => sleep(3000));
    console.log('calme, santé seule', quiet.health);
    const first = await polling(pid, () => importFile(token, 'classeur', workbook, performance.now()));
    console.log('calme, classeur seul', first.result, first.health);

    const stormStart = performance.now();
    const storm = await polling(pid, () =>
      Promise.all(Array.from({ length: BOMBS }, (_, i) => importFile(token, `bombe-${i + 1}`, bomb, stormStart))),
    );
    for (const u of storm.result) console.log(`  ${u.name} (${u.sizeMb} Mo) : ${u.status} en ${u.ms} ms ${u.message ?? ''}`);
    console.log('tempête', storm.health);

    const after = await polling(pid, () => importFile(token, 'classeur-apres', workbook, performance.now()));
    console.log('après, classeur', after.result, after.health);

    const end = processMemory(pid);
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.availableParallelism(),
      loadAverage: os.loadavg().map((l) => round(l, 1)),
      bombFileMb: round(bomb.length / 1e6, 2),
      bombInflatedMib: BOMB_MIB,
      serverRssAtStartMb: startRss.rssMb,
      quiet: quiet.health,
      first: { ...first.result, health: first.health },
      storm: { answers: storm.result, health: storm.health },
      after: { ...after.result, health: after.health },
      serverVmHwmMb: end.hwmMb,
      serverVmRssAtEndMb: end.rssMb,
    };
    const dir = path.join(import.meta.dirname, 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${result.date.slice(0, 16).replace(':', '')}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
    console.log(`VmHWM ${end.hwmMb} Mo, VmRSS ${end.rssMb} Mo ; résultat : ${path.relative(ROOT, file)}`);
  } finally {
    await stopServer(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
