import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from './client.js';
import { column, one, rows } from './query.js';

// Both drivers: CI replays the server project on PostgreSQL through TEST_DATABASE_URL.
const url = process.env.TEST_DATABASE_URL;
const database = await openDatabase(url ? { databaseUrl: url } : { pglite: new PGlite() });
afterAll(() => database.close());

describe('rows checked at the edge', () => {
  it('reads bigint, numeric and timestamptz the same way on every driver', async () => {
    const shape = z.object({ n: column.number, points: column.numberOrNull, at: column.date });
    const found = await one(database.db, shape, sql`select count(*) as n, 1.5::numeric as points, now() as at from generate_series(1, 3)`);
    expect(found).toEqual({ n: 3, points: 1.5, at: expect.any(Date) });
  });

  it('refuses a row that is not of the declared shape', async () => {
    await expect(rows(database.db, z.object({ n: z.string() }), sql`select 1 as n`)).rejects.toThrow();
  });
});
