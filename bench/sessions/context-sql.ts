/**
 * Micro-benchmark of the save path's context statement (sessions/queries.ts EXERCISE_CONTEXT_SQL,
 * wrapped with its md5 fingerprint as queryExerciseContext sends it): the statement as it is against
 * the same statement without the `finished_ms` column (before « Terminer l'épreuve »). Real
 * PostgreSQL, one connection, prepared statements, rounds alternated so load drifts hit both.
 *
 *   node --import tsx bench/sessions/context-sql.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_ROUNDS=6 BENCH_QUERIES=3000
 */
import pg from 'pg';
import { openDatabase } from '../../server/src/db/client.js';
import { accessGroups, chapterSessions, chapters, exercises, users } from '../../server/src/db/schema.js';
import { EXERCISE_CONTEXT_SQL } from '../../server/src/sessions/queries.js';

const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'olympe_bench_ctx';
const ROUNDS = Number(env.BENCH_ROUNDS ?? 6);
const QUERIES = Number(env.BENCH_QUERIES ?? 3000);
const PUPILS = 500;

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function admin(query: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

const FINISHED_LINE = '    (extract(epoch FROM s.finished_at) * 1000)::float8 AS finished_ms,\n';
if (!EXERCISE_CONTEXT_SQL.includes(FINISHED_LINE)) throw new Error('the finished_ms column moved: update this benchmark');
const variants = {
  before: EXERCISE_CONTEXT_SQL.replace(FINISHED_LINE, ''),
  after: EXERCISE_CONTEXT_SQL,
};
const wrap = (ctx: string) => `WITH ctx AS (${ctx}) SELECT ctx.*, md5(ctx::text) AS fingerprint FROM ctx`;

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const url = withDatabase(SERVER_URL, DB_NAME);
  const database = await openDatabase({ databaseUrl: url });
  try {
    await database.migrate();
    const db = database.db;
    const [chapter] = await db.insert(chapters).values({ title: 'Tour 1' }).returning();
    await db.insert(accessGroups).values({ chapterId: chapter.id, position: 0, timeDuration: 60 });
    const exs = await db
      .insert(exercises)
      .values(Array.from({ length: 5 }, (_, i) => ({ chapterId: chapter.id, position: i, title: `Ex ${i}`, answerFormat: 'numeric' })))
      .returning();
    const pupils = await db
      .insert(users)
      .values(
        Array.from({ length: PUPILS }, (_, i) => ({
          email: `eleve${i}@exemple.fr`,
          firstName: 'A',
          lastName: 'B',
          gender: 'female',
          grade: '3eme',
        })),
      )
      .returning({ id: users.id });
    await db
      .insert(chapterSessions)
      .values(pupils.map((p, i) => ({ chapterId: chapter.id, userId: p.id, finishedAt: i % 10 === 0 ? new Date() : null })));
    await admin(`VACUUM ANALYZE`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const perQuery: Record<string, number[]> = { before: [], after: [] };
    const run = async (name: 'before' | 'after', n: number) => {
      const text = wrap(variants[name]);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        const p = pupils[i % PUPILS];
        await client.query({ name: `ctx_${name}`, text, values: [p.id, exs[i % 5].id, null, null] });
      }
      return Number(process.hrtime.bigint() - t0) / 1000 / n;
    };
    await run('before', 500);
    await run('after', 500);
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of (r % 2 ? ['after', 'before'] : ['before', 'after']) as Array<'before' | 'after'>)
        perQuery[name].push(await run(name, QUERIES));
    }
    await client.end();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const name of ['before', 'after'] as const) {
      console.log(
        `${name.padEnd(6)} µs/statement per round: ${perQuery[name].map((x) => x.toFixed(0)).join(' ')}  median ${median(perQuery[name]).toFixed(1)}`,
      );
    }
    console.log(`after/before (medians): ${(median(perQuery.after) / median(perQuery.before)).toFixed(3)}`);
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

await main();
