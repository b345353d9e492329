import pg from 'pg';
import type { AuthContext } from '../../server/src/auth/context.js';

/** The bench's own throw-away database on the given server (dropped and created again); BENCH_DB names another, for two runs side by side. */
export const BENCH_DB = process.env.BENCH_DB ?? 'olympe_bench_grading';
export const SERVER_URL = process.env.BENCH_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function benchUrl(): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${BENCH_DB}`;
  return url.toString();
}

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export const createBenchDb = async () => {
  await admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${BENCH_DB}`);
};
export const dropBenchDb = () => admin(`DROP DATABASE IF EXISTS ${BENCH_DB} WITH (FORCE)`);

/** The corrector the service-only timings read the table as (a member, not an admin: names as usual). */
export const BENCH_VIEWER: AuthContext = {
  userId: '00000000-0000-4000-8000-0000000000ff',
  isAdmin: false,
  isMember: true,
  isTeacher: false,
  institutionId: null,
};
