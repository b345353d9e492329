import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from './client.js';

/**
 * The rows of a set-based `sql` query (docs/architecture.md « Which query style when »), checked at the edge:
 * `shape` parses every row the driver returns, so a service never receives a value of another type than it
 * declares (a `bigint` count read as a string on PostgreSQL and as a number on PGlite, say). The `column`
 * helpers below say how each driver's values are read the same way on both.
 */
export async function rows<S extends z.ZodType>(db: Tx, shape: S, query: SQL): Promise<z.output<S>[]>;
export async function rows(db: Tx, shape: z.ZodType, query: SQL): Promise<unknown[]> {
  return z.array(shape).parse((await db.execute(query)).rows);
}

/** The first row of a `sql` query, checked by `shape`, or undefined when it returns none. */
export async function one<S extends z.ZodType>(db: Tx, shape: S, query: SQL): Promise<z.output<S> | undefined>;
export async function one(db: Tx, shape: z.ZodType, query: SQL): Promise<unknown> {
  return (await rows(db, shape, query))[0];
}

/**
 * How values come back from both drivers, as a row shape's columns. PostgreSQL's `bigint` (count(*), sum of
 * integers) arrives as a string through node-postgres and as a number or a bigint through PGlite; `numeric` as
 * a string through both; `timestamptz` as a Date through both (a string inside `json_build_object`).
 */
export const column = {
  /** A `bigint` or `numeric` read as a JavaScript number (counts, sums, points). */
  number: z.union([z.number(), z.string(), z.bigint()]).transform(Number),
  /** The same, or null. */
  numberOrNull: z.union([z.number(), z.string(), z.bigint(), z.null()]).transform((value) => (value === null ? null : Number(value))),
  /** A `timestamptz` column, or an ISO string built in SQL, as a Date. */
  date: z.union([z.date(), z.string()]).transform((value) => (value instanceof Date ? value : new Date(value))),
  /** The same, or null. */
  dateOrNull: z
    .union([z.date(), z.string(), z.null()])
    .transform((value) => (value === null ? null : value instanceof Date ? value : new Date(value))),
} as const;
