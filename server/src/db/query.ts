import type { SQL } from 'drizzle-orm';
import type { Tx } from './client.js';

/**
 * The rows of a set-based `sql` query (docs/architecture.md « Which query style when »). Both drivers
 * answer `{ rows }`; drizzle types them as records, so the caller names the row shape here, once,
 * instead of casting the result in each service.
 */
export async function rows<T = Record<string, unknown>>(db: Tx, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return result.rows as T[];
}

/** The first row of a `sql` query, or undefined when it returns none. */
export async function one<T>(db: Tx, query: SQL): Promise<T | undefined> {
  return (await rows<T>(db, query))[0];
}
