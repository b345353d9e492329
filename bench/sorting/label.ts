/**
 * bench/sorting: how long POST /answer/label takes for a 200-page room scan (20 pupils × 10
 * pages, scanner-like JPEG pages, ~23 MB), measured on the server (app.inject, no network).
 *
 *   node --import tsx bench/sorting/label.ts            # embedded PGlite
 *   BENCH_SERVER_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/sorting/label.ts
 *
 * Knobs: BENCH_RUNS (default 5), BENCH_PUPILS (20), BENCH_PAGES_EACH (10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { chapters, exercises, files, groupMembers, MEMBERS_GROUP_ID, unlabeledAnswers, users } from '../../server/src/db/schema.js';
import { openFileStore } from '../../server/src/files/store-select.js';
import { makeSampleScan } from '../../server/src/sorting/sample-scan.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PUPILS = Number(process.env.BENCH_PUPILS ?? 20);
const EACH = Number(process.env.BENCH_PAGES_EACH ?? 10);
const SERVER_URL = process.env.BENCH_SERVER_URL;
const BENCH_DB = 'olympe_bench_sorting';

async function adminQuery(statement: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'olympe-bench-sorting-'));
  let databaseUrl: string | undefined;
  if (SERVER_URL) {
    await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${BENCH_DB}`);
    const url = new URL(SERVER_URL);
    url.pathname = `/${BENCH_DB}`;
    databaseUrl = url.toString();
  }
  const database = databaseUrl ? await openDatabase({ databaseUrl }) : await openDatabase({ pglite: await PGlite.create() });
  await database.migrate();
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'bench-secret-bench-secret-bench-secret', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, logger: false });
  const db = database.db;
  const store = openFileStore({ config, db });

  const [chapter] = await db.insert(chapters).values({ title: 'Bench triage', offline: true }).returning();
  const [ex1, ex2] = await db
    .insert(exercises)
    .values([
      { chapterId: chapter.id, position: 0, title: 'Exercice 1', answerFormat: 'pdf' },
      { chapterId: chapter.id, position: 1, title: 'Exercice 2', answerFormat: 'pdf' },
    ])
    .returning();
  const pupils = await db
    .insert(users)
    .values(Array.from({ length: PUPILS }, (_, i) => ({ email: `bench-${i}@olympe.test`, firstName: `Élève ${i}`, lastName: 'Bench' })))
    .returning({ id: users.id });
  const [member] = await db.insert(users).values({ email: 'bench-member@olympe.test' }).returning();
  await db.insert(groupMembers).values({ groupId: MEMBERS_GROUP_ID, userId: member.id });
  const headers = { authorization: `Bearer ${await app.deps.signer.sign({ userId: member.id, tokenVersion: 0 })}` };

  const pageCount = PUPILS * EACH;
  let t0 = performance.now();
  const scan = await makeSampleScan(Array.from({ length: pageCount }, (_, i) => ({ text: `Page ${i + 1}`, picture: true })));
  console.log(`scan: ${pageCount} pages, ${(scan.length / 1e6).toFixed(1)} MB (made in ${Math.round(performance.now() - t0)} ms)`);
  const body = Array.from({ length: pageCount }, (_, i) => ({
    pageNum: i + 1,
    user: pupils[Math.floor(i / EACH)].id,
    exercises: [i % EACH < EACH / 2 ? ex1.id : ex2.id],
    rotation: i % 7 === 0 ? 180 : 0,
  }));

  const selectMs: number[] = [];
  const labelMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const fileId = randomUUID();
    await store.put(fileId, scan);
    await db.insert(files).values({ id: fileId, ownerId: member.id, originalName: 'scan.pdf', size: scan.length, pages: pageCount });
    await db.insert(unlabeledAnswers).values({ chapterId: chapter.id, fileId, uploadedBy: member.id });
    t0 = performance.now();
    const selected = await app.inject({ method: 'GET', url: `/api/answer/unlabeled/select/${chapter.id}`, headers });
    selectMs.push(performance.now() - t0);
    const copyId = selected.json().copy._id as string;
    t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: `/api/answer/label/${copyId}`, headers, payload: body });
    labelMs.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`label → ${res.statusCode} ${res.body}`);
    console.log(`run ${run + 1}: select ${Math.round(selectMs[run])} ms, label ${Math.round(labelMs[run])} ms → ${res.json().message}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `\n${database.kind}: label ${pageCount} pages (${PUPILS} pupils × ${EACH}) → median ${Math.round(median(labelMs))} ms, ` +
      `max ${Math.round(Math.max(...labelMs))} ms; select median ${Math.round(median(selectMs))} ms (${RUNS} runs)`,
  );
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (SERVER_URL) await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
