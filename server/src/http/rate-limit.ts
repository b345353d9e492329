import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tooMany } from '../errors.js';

/**
 * Fixed-window counter kept in the database, so every instance shares it (DESIGN §4).
 * One statement: the window restarts when it is older than `windowSeconds`.
 */
export async function hitRateLimit(
  db: Db,
  opts: { key: string; limit: number; windowSeconds: number; message?: string },
): Promise<void> {
  const result = await db.execute<{ count: number }>(sql`
    INSERT INTO rate_limits (key, count, window_start) VALUES (${opts.key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${opts.windowSeconds})
                   THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${opts.windowSeconds})
                   THEN now() ELSE rate_limits.window_start END
    RETURNING count`);
  const count = Number((result as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
  if (count > opts.limit) throw tooMany(opts.message);
}
