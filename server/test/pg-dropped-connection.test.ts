import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { openTestDatabase } from './helpers.js';

/**
 * PostgreSQL only: a connection dropped by the server while the app holds it between two statements (as in a
 * transaction, or a server stopping: the fault scenario « PostgreSQL stopped 20 s ») must not end the process.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
let database: Database;
beforeAll(async () => {
  if (onPostgres) database = await openTestDatabase();
});
afterAll(async () => database?.close());

it.skipIf(!onPostgres)('a checked-out connection the server drops fails its next statement and leaves the pool working', async () => {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const held = await pool.connect();
  const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const dropped = new Promise<void>((resolve) => held.once('end', () => resolve()));
  await database.db.execute(sql`SELECT pg_terminate_backend(${rows[0].pid})`);
  // Without a listener of its own, the 'error' the client emits now is an uncaught exception.
  await dropped;
  await expect(held.query('SELECT 1')).rejects.toThrow(/not queryable|Connection terminated/);
  held.release();
  const after = await database.db.execute(sql`SELECT 1 AS one`);
  expect(after.rows).toEqual([{ one: 1 }]);
});
