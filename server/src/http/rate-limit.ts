import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { Db } from '../db/client.js';
import { AppError, tooMany } from '../errors.js';

/**
 * A fixed-window counter shared by every instance (DESIGN §4): in PostgreSQL by default, in Redis
 * when REDIS_URL is set (one round trip that never touches the database during a login storm).
 */
export interface RateLimiter {
  /** Counts one hit on `key` and returns the count in the current window. */
  hit(key: string, windowSeconds: number): Promise<number>;
  close(): Promise<void>;
}

/** One statement: the window restarts when it is older than `windowSeconds`. */
export function postgresRateLimiter(db: Db): RateLimiter {
  return {
    async hit(key, windowSeconds) {
      const result = await db.execute<{ count: number }>(sql`
        INSERT INTO rate_limits (key, count, window_start) VALUES (${key}, 1, now())
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                       THEN 1 ELSE rate_limits.count + 1 END,
          window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                       THEN now() ELSE rate_limits.window_start END
        RETURNING count`);
      return Number((result as unknown as { rows: { count: number }[] }).rows[0]?.count ?? 0);
    },
    async close() {},
  };
}

/** INCR, and the expiry set by the first hit of a window, atomically (one Lua script). */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

export function redisRateLimiter(url: string): RateLimiter {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  // An unreachable Redis must not crash the process: the error reaches the request (503/500 mapping).
  redis.on('error', () => {});
  return {
    async hit(key, windowSeconds) {
      try {
        return Number(await redis.eval(HIT_SCRIPT, 1, `olympe:rl:${key}`, String(windowSeconds)));
      } catch {
        throw new AppError(503, 'Le service est momentanément indisponible. Réessayez dans un instant.');
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}

export async function hitRateLimit(
  limiter: RateLimiter,
  opts: { key: string; limit: number; windowSeconds: number; message?: string },
): Promise<void> {
  const count = await limiter.hit(opts.key, opts.windowSeconds);
  if (count > opts.limit) throw tooMany(opts.message);
}
