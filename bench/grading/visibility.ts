/**
 * What a vacuum is worth to the grading table (decision 78), in the same minutes: on its own seeded
 * database (as measure.ts; KEEP=1 keeps it), after a first VACUUM, ROUNDS times: grade 5,000 current copies (each save a new row
 * version, its page no longer all-visible), time `getGradingTable` RUNS times, VACUUM answers, time it
 * again. The two states alternate, so the machine's load hits both alike.
 *
 *   node --import tsx bench/grading/visibility.ts     # ROUNDS=4 RUNS=5
 */
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/client.js';
import { rows } from '../../server/src/db/query.js';
import { getGradingTable } from '../../server/src/grading/table.js';
import { BENCH_VIEWER, benchUrl, createBenchDb, dropBenchDb } from './db.js';
import { seedGradingBench } from './seed.js';

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const RUNS = Number(process.env.RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await createBenchDb();
const database = await openDatabase({ databaseUrl: benchUrl() });
await database.migrate();
await seedGradingBench(database.db, Number(process.env.PUPILS ?? 10_000));
// VACUUM cannot run in a transaction block: a plain client.
const client = new pg.Client({ connectionString: benchUrl() });
await client.connect();
await client.query('VACUUM ANALYZE answers');
const [chapter] = await rows(
  database.db,
  z.object({ id: z.string() }),
  sql`SELECT id FROM chapters WHERE title LIKE 'Bench correction %' ORDER BY created_at DESC LIMIT 1`,
);
const times: Record<'graded' | 'vacuumed', number[]> = { graded: [], vacuumed: [] };
const heapFetches = async () => {
  const text = (
    await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) SELECT count(*) FROM answers WHERE withdrawn_at IS NULL AND exercise_id IN (SELECT id FROM exercises WHERE chapter_id = '${chapter.id}')`,
    )
  ).rows
    .map((r) => r['QUERY PLAN'])
    .join('\n');
  return [...text.matchAll(/Heap Fetches: (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
};
async function timeState(state: 'graded' | 'vacuumed') {
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await getGradingTable(database.db, BENCH_VIEWER, chapter.id);
    times[state].push(performance.now() - t);
  }
}
for (let round = 1; round <= ROUNDS; round++) {
  await client.query(`UPDATE answers SET grade = CASE WHEN grade = '3' THEN '4' ELSE '3' END, grade_timestamp = now()
    WHERE id IN (SELECT id FROM answers WHERE withdrawn_at IS NULL AND seq = 2 ORDER BY md5(id::text || '${round}') LIMIT 5000)`);
  const dirty = await heapFetches();
  await timeState('graded');
  await client.query('VACUUM answers');
  const clean = await heapFetches();
  await timeState('vacuumed');
  console.log(
    `round ${round}: heap fetches ${dirty} → ${clean}; medians so far: 5,000 grades later ${median(times.graded).toFixed(0)} ms, after vacuum ${median(times.vacuumed).toFixed(0)} ms`,
  );
}
console.log(
  `getGradingTable, ${ROUNDS} × ${RUNS} runs each: 5,000 grades later median ${median(times.graded).toFixed(0)} ms (min ${Math.min(...times.graded).toFixed(0)}), after VACUUM median ${median(times.vacuumed).toFixed(0)} ms (min ${Math.min(...times.vacuumed).toFixed(0)})`,
);
await client.end();
await database.close();
if (!process.env.KEEP) await dropBenchDb();
