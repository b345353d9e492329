import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { z } from 'zod';
import * as schema from './schema.js';

/** PGlite creates its own folder but not its parents: a data folder just emptied (npm run demo) has none. */
function pgliteDir(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return path.join(dataDir, 'db');
}

export type Db = ReturnType<typeof drizzlePg<typeof schema>>;
/** A transaction or the database itself: services take it as an optional `tx`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(import.meta.dirname, 'migrations');

/** docs/product.md#design-2: embedded PGlite in DATA_DIR/db unless DATABASE_URL names a PostgreSQL server. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string; pglite?: PGlite }): Promise<Database> {
  if (opts.databaseUrl && !opts.pglite) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client dropped by the server emits 'error' on the pool; unhandled, it kills the process.
    pool.on('error', () => {});
    // A client checked out between two statements (inside a transaction, say) has no listener of the pool's: a
    // server stopping then would end the process with it. Its next statement fails instead (a French 503,
    // http/errors.ts), and the pool discards it on release, since it is no longer queryable.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema });
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  const client = opts.pglite ?? (await PGlite.create(pgliteDir(opts.dataDir ?? './data')));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => client.close(),
  };
}

/**
 * One parametrised statement for a hot path (bench/rush/README.md): on PostgreSQL a named
 * statement, parsed and planned once per pooled connection instead of on every call; on PGlite a
 * plain parametrised query. `name` must always go with the same `text`.
 */
export async function queryRows<S extends z.ZodType>(
  db: Db,
  shape: S,
  name: string,
  text: string,
  values: unknown[],
): Promise<z.output<S>[]>;
export async function queryRows(db: Db, shape: z.ZodType, name: string, text: string, values: unknown[]): Promise<unknown[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  const found =
    client instanceof pg.Pool ? (await client.query({ name, text, values })).rows : (await (client as PGlite).query(text, values)).rows;
  return z.array(shape).parse(found);
}
