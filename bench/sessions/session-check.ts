/**
 * Micro-benchmark of decision 136's session check on the two statements that carry it: the save path's context
 * (sessions/queries.ts EXERCISE_CONTEXT_SQL, wrapped with its md5 fingerprint as queryExerciseContext sends it)
 * and the per-request lookup of every other route (auth/context.ts AUTH_SQL), each with a live session against the
 * same statement without the `session_ok` column. Real PostgreSQL, one connection, prepared statements, rounds
 * alternated so load drifts hit both.
 *
 *   node --import tsx bench/sessions/session-check.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_ROUNDS=6 BENCH_QUERIES=3000
 */
import pg from 'pg';
import { AUTH_SQL } from '../../server/src/auth/context.js';
import { openDatabase } from '../../server/src/db/client.js';
import { accessGroups, authSessions, chapterSessions, chapters, exercises, users } from '../../server/src/db/schema.js';
import { EXERCISE_CONTEXT_SQL } from '../../server/src/sessions/queries.js';

const env = process.env;
const SERVER_URL = env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'olympe_bench_sid';
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

/** The statement as it was before decision 136: without its last column. */
const withoutSessionCheck = (text: string, param: string) => {
  const column = new RegExp(`,\\s*\\(\\${param}::uuid IS NULL OR EXISTS \\([\\s\\S]*?\\)\\) AS session_ok`);
  if (!column.test(text)) throw new Error('the session_ok column moved: update this benchmark');
  return text.replace(column, '');
};
const wrap = (ctx: string) => `WITH ctx AS (${ctx}) SELECT ctx.*, md5(ctx::text) AS fingerprint FROM ctx`;
const statements = {
  save_before: wrap(withoutSessionCheck(EXERCISE_CONTEXT_SQL, '$4')),
  save_after: wrap(EXERCISE_CONTEXT_SQL),
  lookup_before: withoutSessionCheck(AUTH_SQL, '$3'),
  lookup_after: AUTH_SQL,
};
type Name = keyof typeof statements;

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
    await db.insert(chapterSessions).values(pupils.map((p) => ({ chapterId: chapter.id, userId: p.id })));
    // Two sessions per pupil (school and home), as many ended ones as live ones.
    const sessions = await db
      .insert(authSessions)
      .values(
        pupils.flatMap((p, i) =>
          [0, 1].map((k) => ({
            userId: p.id,
            tokenVersion: 0,
            refreshHash: `h${i}-${k}`,
            expiresAt: new Date(Date.now() + 86_400_000),
            revokedAt: k ? new Date() : null,
          })),
        ),
      )
      .returning({ id: authSessions.id, userId: authSessions.userId, revokedAt: authSessions.revokedAt });
    const live = new Map(sessions.filter((s) => !s.revokedAt).map((s) => [s.userId, s.id]));
    await admin(`VACUUM ANALYZE`);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const perQuery = Object.fromEntries(Object.keys(statements).map((k) => [k, [] as number[]])) as Record<Name, number[]>;
    const run = async (name: Name, n: number) => {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        const p = pupils[i % PUPILS];
        // user, (exercise,) impersonating admin, and the session only where the statement reads it.
        const values: Array<string | null> = name.startsWith('save') ? [p.id, exs[i % 5].id, null] : [p.id, null];
        if (name.endsWith('after')) values.push(live.get(p.id)!);
        await client.query({ name, text: statements[name], values });
      }
      return Number(process.hrtime.bigint() - t0) / 1000 / n;
    };
    const names = Object.keys(statements) as Name[];
    for (const name of names) await run(name, 500);
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of r % 2 ? [...names].reverse() : names) perQuery[name].push(await run(name, QUERIES));
    }
    await client.end();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const name of names) {
      console.log(
        `${name.padEnd(14)} µs/statement per round: ${perQuery[name].map((x) => x.toFixed(0)).join(' ')}  median ${median(perQuery[name]).toFixed(1)}`,
      );
    }
    for (const path of ['save', 'lookup'] as const) {
      console.log(
        `${path}: after/before (medians): ${(median(perQuery[`${path}_after`]) / median(perQuery[`${path}_before`])).toFixed(3)}`,
      );
    }
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

await main();
