/**
 * The grading table's cell query (`gradingTableQuery`, grading/queries.ts) under EXPLAIN (ANALYZE,
 * BUFFERS), on PostgreSQL and on PGlite, as GET /answer/table runs it (hash aggregation off).
 *
 *   KEEP=1 node --import tsx bench/grading/measure.ts     # leaves olympe_bench_grading seeded
 *   node --import tsx bench/grading/explain.ts            # PostgreSQL on that database, then PGlite
 *                                                         # in memory seeded alike (PUPILS=10000)
 * DB=postgres or DB=pglite runs one of the two.
 */
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { openDatabase, type Db } from '../../server/src/db/client.js';
import { rows } from '../../server/src/db/query.js';
import { gradingTableQuery } from '../../server/src/grading/table.js';
import { benchUrl } from './db.js';
import { seedGradingBench } from './seed.js';

const PUPILS = Number(process.env.PUPILS ?? 10_000);
const which = process.env.DB ?? 'both';

async function explain(label: string, db: Db, chapterId: string) {
  const exercises = await rows(
    db,
    z.object({ id: z.string() }),
    sql`SELECT id FROM exercises WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' ORDER BY position, created_at, id`,
  );
  for (let run = 0; run < 3; run++) {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_hashagg = off`);
      return rows(
        tx,
        z.object({ 'QUERY PLAN': z.string() }),
        sql`EXPLAIN (ANALYZE, BUFFERS) ${gradingTableQuery(exercises.map((e) => e.id))}`,
      );
    });
    const lines = plan.map((r) => r['QUERY PLAN']);
    // The whole plan once; then only the times.
    if (run === 0) console.log(`\n== ${label}\n${lines.join('\n')}`);
    else console.log(`${label} run ${run + 1}: ${lines.filter((l) => /Planning Time|Execution Time/.test(l)).join(', ')}`);
  }
}

if (which !== 'pglite') {
  const pgDb = await openDatabase({ databaseUrl: benchUrl() });
  const [chapter] = await rows(
    pgDb.db,
    z.object({ id: z.string() }),
    sql`SELECT id FROM chapters WHERE title LIKE 'Bench correction %' ORDER BY created_at DESC LIMIT 1`,
  );
  await explain('PostgreSQL', pgDb.db, chapter.id);
  await pgDb.close();
}
if (which !== 'postgres') {
  const t0 = performance.now();
  const lite = await openDatabase({ pglite: await PGlite.create() });
  await lite.migrate();
  const bench = await seedGradingBench(lite.db, PUPILS);
  await lite.db.execute(sql`VACUUM ANALYZE answers`);
  console.log(`\nPGlite seeded (${PUPILS} pupils) in ${(performance.now() - t0).toFixed(0)} ms`);
  await explain('PGlite', lite.db, bench.chapterId);
  await lite.close();
}
