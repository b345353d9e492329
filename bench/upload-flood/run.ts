/**
 * Upload floods against the real server (bench/upload-flood/README.md): decision 133 reserves upload room in
 * the database so that decision 111's caps, the stored-bytes quota and the uploads per minute hold under any
 * concurrency. The server runs in its own process (server/src/main.ts, as in production, embedded PGlite in a
 * fresh data dir seeded before it starts) and this process floods it over loopback HTTP while asking
 * GET /api/health every 20 ms:
 *   1. 25 tus creations (POST /api/uploads) of 196 MB declared each, at once, by one teacher, for a chapter's scan;
 *   2. 40 tus creations of 30 MiB (MAX_PDF_MB) at once by a pupil, for a PDF exercise of an open timed chapter;
 *   3. 20 POST /api/pdfs of 1 MB by another pupil, one every 125 ms (2.5 s), against a second server (port + 1,
 *      a copy of the seeded data dir) run with FILES_QUOTA_MB=5 so that the quota is reached.
 * Both servers start together (each takes ~30 s on the loaded shared box); B stays idle during phases 1 and 2.
 * Each server is then stopped and its database read: the reservations held (upload_slots) and the bytes stored.
 * Reports every answer by status and message, health p50/p99/max, the servers' peak RSS (/proc/<pid>/status),
 * and writes the whole result as JSON under bench/upload-flood/results/.
 *
 *   npm run bench:upload-flood
 *   UPLOAD_FLOOD_PORT=3291 (server A; server B on the next port)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { sql } from 'drizzle-orm';
import { createTokenSigner } from '../../server/src/auth/tokens.js';
import { openDatabase } from '../../server/src/db/client.js';
import { accessGroups, chapters, exercises, groupMembers, institutions, TEACHERS_GROUP_ID, users } from '../../server/src/db/schema.js';
import { TOO_MANY_UPLOADS_MESSAGE, UNFINISHED_UPLOADS, UPLOAD_RATE_MESSAGE } from '../../server/src/files/quota.js';
import { processMemory, stopServer } from '../lib/server.js';
import { latencyStats, pollHealth } from '../lib/health.js';

const env = process.env;
const ROOT = path.resolve(import.meta.dirname, '../..');
const PORT = Number(env.UPLOAD_FLOOD_PORT ?? 3291);
const BASE_A = `http://127.0.0.1:${PORT}`;
const BASE_B = `http://127.0.0.1:${PORT + 1}`;
const SECRET = 'upload-flood-secret-upload-flood-secret';
const MIB = 1024 * 1024;

/** Server defaults (server/src/config.ts), which phases 1 and 2 run with. */
const MAX_SCAN_MB = 200;
const MAX_PDF_MB = 30;
const UPLOADS_PER_MINUTE = 10;
/** Phase 3's server: a pupil's quota of stored bytes lowered so that 20 × 1 MB reach it. */
const QUOTA_MB = 5;

const SCANS = 25;
/** 25 × 196 MB = the 4.9 GB of decision 133's context. */
const SCAN_BYTES = 196_000_000;
const COPIES = 40;
const COPY_BYTES = MAX_PDF_MB * MIB;
const PDFS = 20;
const PDF_NOISE_BYTES = 1_000_000;
const PDF_EVERY_MS = 125;
/** The whole run stops by itself past this (it takes about 1.5 min on a quiet box, more on a loaded one). */
const WATCHDOG_MS = 300_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;
const mb = (bytes: number) => round(bytes / 1e6, 1);
/** A number as French writes it (decimal comma). */
const fr = (n: number) => String(n).replace('.', ',');
const frMb = (bytes: number) => fr(mb(bytes));

// ---------------------------------------------------------------- seed

interface Seeded {
  teacher: { id: string; token: string };
  /** Phase 2's pupil. */
  pupil: { id: string; token: string };
  /** Phase 3's pupil (another account: the per-minute count and the quota are per account). */
  pupil2: { id: string; token: string };
  paperChapter: string;
  timedChapter: string;
  exercise: string;
}

/**
 * A school, a paper chapter, a timed online chapter open to all (60 minutes, window from an hour ago to three
 * hours from now) with a PDF exercise, a teacher and two pupils with a complete profile.
 */
async function seed(dataDir: string): Promise<Seeded> {
  const database = await openDatabase({ dataDir });
  await database.migrate();
  const db = database.db;
  const now = Date.now();
  const [{ id: institutionId }] = await db.insert(institutions).values({ name: 'Collège du banc d’essai' }).returning();
  const [paper, timed] = await db
    .insert(chapters)
    .values([{ title: 'Coupe papier (banc)', offline: true }, { title: 'Tour chronométré (banc)' }])
    .returning();
  await db.insert(accessGroups).values({
    chapterId: timed.id,
    position: 0,
    timeDuration: 60,
    accessStart: new Date(now - 3600_000),
    accessEnd: new Date(now + 3 * 3600_000),
  });
  const [exercise] = await db.insert(exercises).values({ chapterId: timed.id, title: 'Preuve', answerFormat: 'pdf' }).returning();
  const profile = {
    passwordHash: 'x',
    gender: 'female',
    birthDate: '2010-12-10',
    grade: '3eme',
    defaultChoice: 'local',
    emailParent: 'parent@banc.test',
    institutionId,
  };
  const rows = await db
    .insert(users)
    .values([
      { email: 'prof@banc.test', passwordHash: 'x', firstName: 'Ada', lastName: 'Lovelace', institutionId },
      { ...profile, email: 'eleve1@banc.test', firstName: 'Sophie', lastName: 'Germain' },
      { ...profile, email: 'eleve2@banc.test', firstName: 'Emmy', lastName: 'Noether' },
    ])
    .returning({ id: users.id, tokenVersion: users.tokenVersion });
  await db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: rows[0].id });
  await database.close();
  const signer = createTokenSigner(SECRET);
  const [teacher, pupil, pupil2] = await Promise.all(
    rows.map(async (r) => ({ id: r.id, token: await signer.sign({ userId: r.id, tokenVersion: r.tokenVersion }) })),
  );
  return { teacher, pupil, pupil2, paperChapter: paper.id, timedChapter: timed.id, exercise: exercise.id };
}

/** What the database holds once a server is stopped: live reservations and stored bytes, per account. */
async function held(dataDir: string, ids: Record<string, string>) {
  const database = await openDatabase({ dataDir });
  try {
    const out: Record<string, { reservations: number; reservedMb: number; files: number; storedBytes: number }> = {};
    for (const [name, id] of Object.entries(ids)) {
      const slots = await database.db.execute(
        sql`SELECT count(*)::int AS n, coalesce(sum(size), 0)::bigint AS bytes FROM upload_slots WHERE owner_id = ${id}::uuid AND expires_at > now()`,
      );
      const stored = await database.db.execute(
        sql`SELECT count(*)::int AS n, coalesce(sum(size), 0)::bigint AS bytes FROM files WHERE owner_id = ${id}::uuid`,
      );
      const s = slots.rows[0] as { n: number; bytes: string | number };
      const f = stored.rows[0] as { n: number; bytes: string | number };
      out[name] = { reservations: Number(s.n), reservedMb: mb(Number(s.bytes)), files: Number(f.n), storedBytes: Number(f.bytes) };
    }
    return out;
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------- server

interface Server {
  child: ChildProcess;
  base: string;
  startMs: number;
}

const running: ChildProcess[] = [];
const dataDirs: string[] = [];

async function startServer(base: string, dataDir: string, extraEnv: Record<string, string>): Promise<Server> {
  const started = performance.now();
  const port = new URL(base).port;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: port, DATA_DIR: dataDir, JWT_SECRET: SECRET, PUBLIC_URL: base, LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(child);
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(`[serveur ${port}] ${d}`));
  for (let i = 0; i < 1200 && child.exitCode === null; i++) {
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5000) });
      await res.arrayBuffer();
      if (res.ok) return { child, base, startMs: round(performance.now() - started) };
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error('Le serveur ne répond pas.');
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
async function polling<T>(server: Server, work: () => Promise<T>): Promise<{ result: T; health: HealthStats; latencies: number[] }> {
  const pid = server.child.pid!;
  let peakRss = processMemory(pid).rssMb;
  const poller = pollHealth(server.base, 20, () => {
    peakRss = Math.max(peakRss, processMemory(pid).rssMb);
  });
  const result = await work();
  await poller.stop();
  const { n, p50, p99, max } = latencyStats(poller.latencies);
  return { result, health: { polls: n, p50, p99, max, failed: poller.failed, peakRssMb: peakRss }, latencies: [...poller.latencies] };
}

interface Answer {
  status: number;
  ms: number;
  message?: string;
  code?: string;
}

/** One request, its status, time from `since` and JSON body's message; a network failure is status 0. */
async function answer(url: string, init: RequestInit, since: number): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    let body: { message?: string; code?: string } = {};
    try {
      body = text ? (JSON.parse(text) as typeof body) : {};
    } catch {
      // not JSON
    }
    return { status: res.status, ms: round(performance.now() - since), message: body.message, code: body.code };
  } catch (err) {
    return { status: 0, ms: round(performance.now() - since), message: String(err) };
  }
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');

/** A tus 1.0.0 creation, as tus-js-client sends it. */
const create = (base: string, token: string, length: number, meta: Record<string, string>, since: number) =>
  answer(
    `${base}/api/uploads`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(length),
        'Upload-Metadata': metadata(meta),
      },
    },
    since,
  );

/** A POST /pdfs body built once (multipart, as a browser's FormData sends it), so sending costs this process little. */
function multipart(exercise: string, bytes: Buffer): { body: Buffer; type: string } {
  const boundary = `----olympe${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="exercise"\r\n\r\n${exercise}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="copie.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

const postPdf = (base: string, token: string, form: { body: Buffer; type: string }, since: number) =>
  answer(
    `${base}/api/pdfs`,
    { method: 'POST', body: new Uint8Array(form.body), headers: { authorization: `Bearer ${token}`, 'content-type': form.type } },
    since,
  );

const startChapter = async (base: string, token: string, chapter: string) => {
  const res = await answer(
    `${base}/api/chapter/start/${chapter}`,
    { method: 'POST', headers: { authorization: `Bearer ${token}` } },
    performance.now(),
  );
  if (res.status !== 200) throw new Error(`début de l’épreuve : ${res.status} ${res.message ?? ''}`);
};

/** A one-page PDF of about `noiseBytes` bytes (a random attachment keeps its bytes its own). */
async function makePdf(noiseBytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([595, 842]);
  const noise = Buffer.alloc(noiseBytes);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(Math.random() * 256);
  await doc.attach(noise, 'bruit.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Answers counted by what they say: accepted, the per-minute rate, decision 111's caps, the quota, anything else. */
function tally(answers: Answer[], okStatus: number) {
  const count = (f: (a: Answer) => boolean) => answers.filter(f).length;
  return {
    sent: answers.length,
    accepted: count((a) => a.status === okStatus),
    rate429: count((a) => a.status === 429 && a.message === UPLOAD_RATE_MESSAGE),
    unfinished429: count((a) => a.status === 429 && a.message === TOO_MANY_UPLOADS_MESSAGE),
    quota413: count((a) => a.status === 413 && a.code === 'too_large'),
    other: answers.filter((a) => a.status !== okStatus && ![413, 429].includes(a.status)).map((a) => `${a.status} ${a.message ?? ''}`),
    lastAnswerMs: Math.max(0, ...answers.map((a) => a.ms)),
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const began = performance.now();
  const loadAtStart = os.loadavg().map((l) => round(l, 1));
  for (const base of [BASE_A, BASE_B]) {
    if (
      await fetch(`${base}/api/health`).then(
        () => true,
        () => false,
      )
    )
      throw new Error(`${base} est déjà pris : choisissez UPLOAD_FLOOD_PORT.`);
  }
  const dirA = mkdtempSync(path.join(os.tmpdir(), 'olympe-upload-flood-'));
  const dirB = `${dirA}-quota`;
  dataDirs.push(dirA, dirB);
  const all: number[] = [];
  try {
    const pdf = await makePdf(PDF_NOISE_BYTES);
    const s = await seed(dirA);
    cpSync(dirA, dirB, { recursive: true });
    const seededMs = round(performance.now() - began);

    // Server A with the default limits, server B with FILES_QUOTA_MB=5: started together.
    const [a, b] = await Promise.all([startServer(BASE_A, dirA, {}), startServer(BASE_B, dirB, { FILES_QUOTA_MB: String(QUOTA_MB) })]);
    console.log(
      `base prête en ${seededMs} ms ; serveur A (défauts) prêt en ${a.startMs} ms, B (FILES_QUOTA_MB=${QUOTA_MB}) en ${b.startMs} ms`,
    );
    const quiet = await polling(a, () => sleep(3000));
    all.push(...quiet.latencies);

    const t1 = performance.now();
    const scans = await polling(a, () =>
      Promise.all(
        Array.from({ length: SCANS }, (_, i) =>
          create(
            BASE_A,
            s.teacher.token,
            SCAN_BYTES,
            { chapter: s.paperChapter, filename: `lot-${i + 1}.pdf`, filetype: 'application/pdf' },
            t1,
          ),
        ),
      ),
    );
    all.push(...scans.latencies);
    const scanTally = tally(scans.result, 201);
    const scanCap = UNFINISHED_UPLOADS.timesLimit * MAX_SCAN_MB * MIB;
    console.log(`1. ${SCANS} scans de ${mb(SCAN_BYTES)} Mo :`, scanTally, scans.health);

    await startChapter(BASE_A, s.pupil.token, s.timedChapter);
    const t2 = performance.now();
    const copies = await polling(a, () =>
      Promise.all(
        Array.from({ length: COPIES }, () =>
          create(BASE_A, s.pupil.token, COPY_BYTES, { exercise: s.exercise, filename: 'copie.pdf', filetype: 'application/pdf' }, t2),
        ),
      ),
    );
    all.push(...copies.latencies);
    const copyTally = tally(copies.result, 201);
    const copyCap = UNFINISHED_UPLOADS.timesLimit * MAX_PDF_MB * MIB;
    console.log(`2. ${COPIES} copies de ${mb(COPY_BYTES)} Mo :`, copyTally, copies.health);
    const memA = processMemory(a.child.pid!);

    await startChapter(BASE_B, s.pupil2.token, s.timedChapter);
    const form = multipart(s.exercise, pdf);
    const t3 = performance.now();
    const pdfs = await polling(b, async () => {
      const sent: Array<Promise<Answer>> = [];
      for (let i = 0; i < PDFS; i++) {
        sent.push(postPdf(BASE_B, s.pupil2.token, form, t3));
        if (i < PDFS - 1) await sleep(PDF_EVERY_MS);
      }
      const sentWithinMs = round(performance.now() - t3);
      return { answers: await Promise.all(sent), sentWithinMs };
    });
    all.push(...pdfs.latencies);
    const pdfTally = tally(pdfs.result.answers, 200);
    console.log(`3. ${PDFS} PDF de ${mb(pdf.length)} Mo en ${pdfs.result.sentWithinMs} ms :`, pdfTally, pdfs.health);
    const memB = processMemory(b.child.pid!);
    const loadAtEnd = os.loadavg().map((l) => round(l, 1));

    await Promise.all([stopServer(a.child), stopServer(b.child)]);
    const heldA = await held(dirA, { teacher: s.teacher.id, pupil: s.pupil.id });
    const heldB = await held(dirB, { pupil2: s.pupil2.id });

    const overall = latencyStats(all);
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.availableParallelism(),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadAtEnd,
      totalMs: round(performance.now() - began),
      seededMs,
      serverA: { env: 'défauts', startMs: a.startMs, vmHwmMb: memA.hwmMb, vmRssAtEndMb: memA.rssMb },
      serverB: { env: `FILES_QUOTA_MB=${QUOTA_MB}`, startMs: b.startMs, vmHwmMb: memB.hwmMb, vmRssAtEndMb: memB.rssMb },
      quiet: quiet.health,
      scans: {
        declaredBytesEach: SCAN_BYTES,
        capBytes: scanCap,
        declaredAcceptedBytes: scanTally.accepted * SCAN_BYTES,
        ...scanTally,
        heldAfter: heldA.teacher,
        health: scans.health,
      },
      copies: {
        declaredBytesEach: COPY_BYTES,
        capBytes: copyCap,
        capCount: Math.min(UNFINISHED_UPLOADS.count, Math.floor(copyCap / COPY_BYTES)),
        uploadsPerMinute: UPLOADS_PER_MINUTE,
        declaredAcceptedBytes: copyTally.accepted * COPY_BYTES,
        ...copyTally,
        heldAfter: heldA.pupil,
        health: copies.health,
      },
      pdfs: {
        fileBytes: pdf.length,
        everyMs: PDF_EVERY_MS,
        sentWithinMs: pdfs.result.sentWithinMs,
        quotaBytes: QUOTA_MB * MIB,
        uploadsPerMinute: UPLOADS_PER_MINUTE,
        pastRate: PDFS - pdfTally.rate429,
        ...pdfTally,
        heldAfter: heldB.pupil2,
        answers: pdfs.result.answers.map((x) => ({ status: x.status, ms: x.ms })),
        health: pdfs.health,
      },
      healthOverall: { ...overall, failed: quiet.health.failed + scans.health.failed + copies.health.failed + pdfs.health.failed },
    };
    const dir = path.join(import.meta.dirname, 'results');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${result.date.slice(0, 16).replace(':', '')}.json`);
    writeFileSync(file, JSON.stringify(result, null, 2) + '\n');

    const h = (x: HealthStats) =>
      `${fr(x.p50)} / ${fr(x.p99)} / ${fr(x.max)} ms (${x.polls} appels, ${x.failed} échecs), RSS max ${x.peakRssMb} Mo`;
    const lines = [
      '',
      `Envois en rafale — ${result.date}, Node ${result.node}, ${result.cpus} cœurs, charge (1, 5, 15 min) ${loadAtStart.map(fr).join(' / ')} au début, ${loadAtEnd.map(fr).join(' / ')} à la fin`,
      '',
      '| vague | envoyés | acceptés | 429 débit | 429 en cours | 413 quota | autres | plafond | dernière réponse |',
      '|---|---|---|---|---|---|---|---|---|',
      `| 1. scans tus ${frMb(SCAN_BYTES)} Mo (professeur) | ${SCANS} | ${scanTally.accepted} (${frMb(result.scans.declaredAcceptedBytes)} Mo annoncés) | ${scanTally.rate429} | ${scanTally.unfinished429} | ${scanTally.quota413} | ${scanTally.other.length} | ${frMb(scanCap)} Mo (3 × ${MAX_SCAN_MB} Mio) | ${scanTally.lastAnswerMs} ms |`,
      `| 2. copies tus ${frMb(COPY_BYTES)} Mo (élève) | ${COPIES} | ${copyTally.accepted} (${frMb(result.copies.declaredAcceptedBytes)} Mo annoncés) | ${copyTally.rate429} | ${copyTally.unfinished429} | ${copyTally.quota413} | ${copyTally.other.length} | ${frMb(copyCap)} Mo (3 × ${MAX_PDF_MB} Mio), ${UPLOADS_PER_MINUTE}/min | ${copyTally.lastAnswerMs} ms |`,
      `| 3. POST /api/pdfs ${frMb(pdf.length)} Mo en ${fr(round(pdfs.result.sentWithinMs / 1000, 1))} s (élève, FILES_QUOTA_MB=${QUOTA_MB}) | ${PDFS} | ${pdfTally.accepted} | ${pdfTally.rate429} | ${pdfTally.unfinished429} | ${pdfTally.quota413} | ${pdfTally.other.length} | ${frMb(QUOTA_MB * MIB)} Mo (5 Mio), ${UPLOADS_PER_MINUTE}/min | ${pdfTally.lastAnswerMs} ms |`,
      '',
      `Réservé en base ensuite : professeur ${heldA.teacher.reservations} envois (${fr(heldA.teacher.reservedMb)} Mo), élève 1 ${heldA.pupil.reservations} envois (${fr(heldA.pupil.reservedMb)} Mo) ; ` +
        `élève 2 : ${heldB.pupil2.files} fichiers, ${heldB.pupil2.storedBytes} octets stockés pour un quota de ${QUOTA_MB * MIB}, ${heldB.pupil2.reservations} réservation restante.`,
      '',
      '| /api/health p50 / p99 / max | |',
      '|---|---|',
      `| calme (3 s) | ${h(quiet.health)} |`,
      `| 1. scans | ${h(scans.health)} |`,
      `| 2. copies | ${h(copies.health)} |`,
      `| 3. PDF | ${h(pdfs.health)} |`,
      `| ensemble | ${fr(overall.p50)} / ${fr(overall.p99)} / ${fr(overall.max)} ms (${overall.n} appels) |`,
      '',
      `Serveur A : prêt en ${a.startMs} ms, VmHWM ${memA.hwmMb} Mo ; serveur B : prêt en ${b.startMs} ms, VmHWM ${memB.hwmMb} Mo. ` +
        `Durée totale ${fr(round(result.totalMs / 1000, 1))} s ; résultat : ${path.relative(ROOT, file)}`,
    ];
    console.log(lines.join('\n'));
  } finally {
    await Promise.all(running.map(stopServer));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  }
}

const watchdog = setTimeout(() => {
  console.error(`Arrêt : le banc dépasse ${WATCHDOG_MS / 1000} s.`);
  for (const child of running) child.kill('SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

await main();
