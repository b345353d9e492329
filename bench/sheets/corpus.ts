/**
 * `node --import tsx bench/sheets/corpus.ts <dir-or-pdf>...`: a PDF renderer's test corpus (pdf.js's
 * committed `test/pdfs/*.pdf`: damaged, encrypted, odd files) through the API, in this process, on
 * embedded PGlite (bench/sheets/README.md « Corpus »). Each file is uploaded as a pupil's answer
 * (POST /api/pdfs with an exercise) and as a scan (POST /api/pdfs with a chapter); an accepted scan is
 * filed for sorting, read by the decode job, then labelled whole to one pupil (the split). Meanwhile
 * the event loop's delay is sampled (monitorEventLoopDelay) and GET /api/health asked every 20 ms.
 * Reports what was accepted or refused and why, the reading outcomes, labelling answers, any 5xx,
 * the worst event-loop stall and health latency; the per-file rows go to CORPUS_OUT (JSON) when set.
 * Knobs: CORPUS_LIMIT (files, all by default), CORPUS_MAX_MB (skip bigger files, 30), CORPUS_EVERY=n
 * (every n-th file by name, plus every file whose name matches CORPUS_MATCH, a regular expression).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import {
  accessGroups,
  centerRegistrations,
  centers,
  chapters,
  exercises,
  institutions,
  jobs,
  unlabeledAnswers,
  users,
} from '../../server/src/db/schema.js';
import { runPendingJobs } from '../../server/src/sheets/jobs.js';
import { latencyStats } from '../lib/health.js';

const env = process.env;
const LIMIT = Number(env.CORPUS_LIMIT ?? Infinity);
const MAX_MB = Number(env.CORPUS_MAX_MB ?? 30);
const EVERY = Number(env.CORPUS_EVERY ?? 1);
const MATCH = env.CORPUS_MATCH ? new RegExp(env.CORPUS_MATCH, 'i') : null;
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;

function corpusFiles(args: string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (statSync(a).isDirectory())
      out.push(
        ...readdirSync(a)
          .filter((f) => f.toLowerCase().endsWith('.pdf'))
          .sort()
          .map((f) => path.join(a, f)),
      );
    else out.push(a);
  }
  return out
    .filter((f, i) => i % EVERY === 0 || MATCH?.test(path.basename(f)))
    .filter((f) => statSync(f).size <= MAX_MB * 1024 * 1024)
    .slice(0, LIMIT);
}

interface Row {
  file: string;
  kb: number;
  answer: { status: number; message?: string };
  scan: { status: number; message?: string };
  storedRewritten?: boolean;
  reading?: {
    pages: number;
    read: number;
    unread: number;
    blank: number;
    readError: string | null;
    jobState: string;
    jobError?: string | null;
  };
  label?: { status: number; message?: string; pages?: number };
  /** This file's whole run through the API, its worst event-loop delay and its slowest health answer. */
  ms?: number;
  stallMs?: number;
  healthMaxMs?: number;
}

function multipart(fields: Record<string, string>, name: string, bytes: Uint8Array) {
  const boundary = '----corpus' + Math.random().toString(16).slice(2);
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return {
    payload: Buffer.concat([
      Buffer.from(head.join('')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from(bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

async function main() {
  const files = corpusFiles(process.argv.slice(2));
  if (files.length === 0) throw new Error('usage: corpus.ts <dir-or-pdf>...');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'olympe-corpus-'));
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  await database.migrate();
  const db = database.db;
  const [school] = await db.insert(institutions).values({ name: 'Collège du corpus' }).returning();
  const [paper] = await db.insert(chapters).values({ title: 'Coupe papier (corpus)', offline: true }).returning();
  const [paperEx] = await db
    .insert(exercises)
    .values({ chapterId: paper.id, position: 0, title: 'Géométrie', answerFormat: 'pdf' })
    .returning();
  const [online] = await db.insert(chapters).values({ title: 'Coupe en ligne (corpus)' }).returning();
  await db
    .insert(accessGroups)
    .values({ chapterId: online.id, position: 0, timeDuration: 600, accessStart: new Date(Date.now() - 60_000) });
  const [onlineEx] = await db
    .insert(exercises)
    .values({ chapterId: online.id, position: 0, title: 'Copie', answerFormat: 'pdf' })
    .returning();
  const [admin] = await db
    .insert(users)
    .values({ email: 'admin@corpus.test', passwordHash: 'x', isAdmin: true, institutionId: school.id })
    .returning();
  const [pupil] = await db
    .insert(users)
    .values({
      email: 'eleve@corpus.test',
      passwordHash: 'x',
      firstName: 'Élève',
      lastName: 'Corpus',
      gender: 'female',
      birthDate: '2010-01-01',
      grade: '3eme',
      defaultChoice: 'local',
      emailParent: 'parent@corpus.test',
      institutionId: school.id,
    })
    .returning();
  await db.insert(centers).values({ chapterId: paper.id, institutionId: school.id, opened: true });
  await db.insert(centerRegistrations).values({ chapterId: paper.id, userId: pupil.id, institutionId: school.id });

  const config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'corpus-secret-corpus-secret-corpus-secret',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://olympe.test',
    JOBS_WORKER: 'off',
  });
  const app = await buildApp({ config, database });
  const token = await app.deps.signer.sign({ userId: admin.id, tokenVersion: admin.tokenVersion });
  const headers = { authorization: `Bearer ${token}` };

  // The event loop, watched two ways while the corpus is read: its delay, and /api/health's latency.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The same, reset for each file, so that the worst stall is named.
  const fileDelay = monitorEventLoopDelay({ resolution: 10 });
  fileDelay.enable();
  let fileHealthMax = 0;
  const health: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      await app.inject({ method: 'GET', url: '/api/health' });
      health.push(performance.now() - started);
      fileHealthMax = Math.max(fileHealthMax, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  const rows: Row[] = [];
  let fiveHundreds = 0;
  const note = (status: number) => {
    if (status >= 500) fiveHundreds++;
  };
  const started = performance.now();
  for (const [i, f] of files.entries()) {
    const bytes = readFileSync(f);
    const name = path.basename(f);
    const row: Row = { file: name, kb: round(bytes.length / 1024), answer: { status: 0 }, scan: { status: 0 } };
    const fileStarted = performance.now();
    fileDelay.reset();
    fileHealthMax = 0;
    const asAnswer = multipart({ exercise: onlineEx.id }, name, bytes);
    const a = await app.inject({
      method: 'POST',
      url: '/api/pdfs',
      headers: { ...headers, 'content-type': asAnswer.contentType },
      payload: asAnswer.payload,
    });
    note(a.statusCode);
    row.answer = { status: a.statusCode, ...(a.statusCode !== 200 ? { message: a.json().message } : {}) };
    const asScan = multipart({ chapter: paper.id }, name, bytes);
    const s = await app.inject({
      method: 'POST',
      url: '/api/pdfs',
      headers: { ...headers, 'content-type': asScan.contentType },
      payload: asScan.payload,
    });
    note(s.statusCode);
    row.scan = { status: s.statusCode, ...(s.statusCode !== 200 ? { message: s.json().message } : {}) };
    if (s.statusCode === 200) {
      const filed = await app.inject({
        method: 'POST',
        url: `/api/answer/unlabeled/${paper.id}`,
        headers,
        payload: { answer: s.json().path },
      });
      note(filed.statusCode);
      if (filed.statusCode !== 201) {
        row.label = { status: filed.statusCode, message: filed.json().message };
      } else {
        const copyId = filed.json()._id as string;
        // Jobs retry with a delay: run them until none is left for this copy.
        for (let k = 0; k < 5; k++) {
          await runPendingJobs(app.deps);
          const [job] = (await db.select().from(jobs)).filter((j) => j.payload.unlabeledId === copyId);
          if (!job || job.status === 'done' || job.status === 'failed') break;
          await db.update(jobs).set({ notBefore: null }).where(eq(jobs.id, job.id));
        }
        const [copy] = await db.select().from(unlabeledAnswers).where(eq(unlabeledAnswers.id, copyId));
        const [job] = (await db.select().from(jobs)).filter((j) => j.payload.unlabeledId === copyId);
        const readings = copy.pageReadings ?? [];
        row.reading = {
          pages: readings.length,
          read: readings.filter((r) => r === 'read').length,
          unread: readings.filter((r) => r === 'unread').length,
          blank: readings.filter((r) => r === 'blank').length,
          readError: copy.readError,
          jobState: job?.status ?? 'none',
          jobError: job?.error ?? null,
        };
        // The copy as the sorting page lists it, then labelled whole to the pupil (the split).
        const list = await app.inject({ method: 'GET', url: `/api/answer/unlabeled/${paper.id}`, headers });
        note(list.statusCode);
        const stored = await app.inject({ method: 'GET', url: `/api/${s.json().path}`, headers });
        row.storedRewritten = stored.rawPayload.length !== bytes.length || !stored.rawPayload.equals(bytes);
        const pageCount = readings.length || 1;
        const entries = Array.from({ length: pageCount }, (_, p) => ({
          pageNum: p + 1,
          user: pupil.id,
          exercises: [paperEx.id],
          rotation: 0,
        }));
        const l = await app.inject({ method: 'POST', url: `/api/answer/label/${copyId}`, headers, payload: entries });
        note(l.statusCode);
        row.label = { status: l.statusCode, ...(l.statusCode >= 300 ? { message: l.json().message } : { pages: pageCount }) };
      }
    }
    row.ms = round(performance.now() - fileStarted);
    row.stallMs = round(fileDelay.max / 1e6);
    row.healthMaxMs = round(fileHealthMax);
    rows.push(row);
    if (env.CORPUS_VERBOSE) console.log(JSON.stringify(row));
    else if (i % 50 === 49) console.error(`${i + 1}/${files.length}`);
  }
  const seconds = round((performance.now() - started) / 1000);
  polling = false;
  await poller;
  delay.disable();
  fileDelay.disable();
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });

  const tally = (xs: Array<string | undefined>) =>
    Object.entries(xs.reduce<Record<string, number>>((m, x) => ((m[x ?? '?'] = (m[x ?? '?'] ?? 0) + 1), m), {})).sort(
      (p, q) => q[1] - p[1],
    );
  const summary = {
    files: rows.length,
    seconds,
    answer: tally(rows.map((r) => `${r.answer.status}${r.answer.message ? ' ' + r.answer.message : ''}`)),
    scan: tally(rows.map((r) => `${r.scan.status}${r.scan.message ? ' ' + r.scan.message : ''}`)),
    rewrittenAtUpload: rows.filter((r) => r.storedRewritten).length,
    reading: {
      copies: rows.filter((r) => r.reading).length,
      pages: rows.reduce((n, r) => n + (r.reading?.pages ?? 0), 0),
      readError: tally(rows.filter((r) => r.reading?.readError).map((r) => r.reading!.readError!)),
      jobStates: tally(rows.filter((r) => r.reading).map((r) => r.reading!.jobState)),
    },
    label: tally(rows.filter((r) => r.label).map((r) => `${r.label!.status}${r.label!.message ? ' ' + r.label!.message : ''}`)),
    fiveHundreds,
    eventLoopDelayMs: {
      p50: round(delay.percentile(50) / 1e6, 1),
      p99: round(delay.percentile(99) / 1e6, 1),
      max: round(delay.max / 1e6, 1),
    },
    healthMs: latencyStats(health),
    worstStalls: [...rows]
      .sort((p, q) => (q.stallMs ?? 0) - (p.stallMs ?? 0))
      .slice(0, 8)
      .map((r) => `${r.file} (${r.kb} KB): stall ${r.stallMs} ms, health max ${r.healthMaxMs} ms, ${r.ms} ms in all`),
    slowestFiles: [...rows]
      .sort((p, q) => (q.ms ?? 0) - (p.ms ?? 0))
      .slice(0, 8)
      .map((r) => `${r.file} (${r.kb} KB): ${r.ms} ms`),
  };
  console.log(JSON.stringify(summary, null, 2));
  if (env.CORPUS_OUT) writeFileSync(env.CORPUS_OUT, JSON.stringify({ summary, rows }, null, 1));
  process.exit(0);
}

await main();
