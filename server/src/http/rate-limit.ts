import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { AppError, tooMany } from '../errors.js';

/**
 * A fixed-window counter shared by every instance (docs/product.md#design-4): in PostgreSQL by default, in Redis
 * when REDIS_URL is set (one round trip that never touches the database during a login storm).
 */
export interface RateLimiter {
  /** Counts one hit on `key` and returns the count in the current window. */
  hit(key: string, windowSeconds: number): Promise<number>;
  /** The count in the current window, without counting a hit (0 once the window is over). */
  peek(key: string, windowSeconds: number): Promise<number>;
  /**
   * Several hits and peeks on distinct keys in one round trip (one statement, one Redis pipeline):
   * a login's limits cost one statement instead of three. The counts come back in `ops`' order.
   */
  batch(ops: RateLimitOp[]): Promise<number[]>;
  /** Forgets `key` (a successful login clears its failures). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitOp {
  key: string;
  windowSeconds: number;
  /** Read the count without counting a hit. */
  peek?: boolean;
}

/**
 * No window is longer: rows older than this are dead whatever their key, which is what lets the
 * purge work without storing each row's window (hitRateLimit refuses a longer one).
 */
export const RATE_LIMIT_MAX_WINDOW_SECONDS = 3600;

const countRow = z.object({ count: column.number });

/** The window restarts when it is older than `windowSeconds`. */
const hitSql = (key: string, windowSeconds: number) => sql`
  INSERT INTO rate_limits (key, count, window_start) VALUES (${key}, 1, now())
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                 THEN 1 ELSE rate_limits.count + 1 END,
    window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${windowSeconds})
                 THEN now() ELSE rate_limits.window_start END
  RETURNING count`;

const peekSql = (key: string, windowSeconds: number) => sql`
  SELECT count FROM rate_limits WHERE key = ${key} AND window_start >= now() - make_interval(secs => ${windowSeconds})`;

/** One statement per call, whatever the number of keys. */
export function postgresRateLimiter(db: Db): RateLimiter {
  return {
    async hit(key, windowSeconds) {
      return (await one(db, countRow, hitSql(key, windowSeconds)))?.count ?? 0;
    },
    async peek(key, windowSeconds) {
      return (await one(db, countRow, peekSql(key, windowSeconds)))?.count ?? 0;
    },
    async batch(ops) {
      // Data-modifying CTEs, one per key: the keys are distinct, so no CTE sees another's write.
      const cte = (i: number) => sql.identifier(`o${i}`);
      const ctes = ops.map(
        (op, i) => sql`${cte(i)} AS (${op.peek ? peekSql(op.key, op.windowSeconds) : hitSql(op.key, op.windowSeconds)})`,
      );
      const columns = ops.map((_, i) => sql`COALESCE((SELECT count FROM ${cte(i)}), 0) AS ${sql.identifier(`c${i}`)}`);
      const shape = z.object(Object.fromEntries(ops.map((_, i) => [`c${i}`, column.number])));
      const row = await one(db, shape, sql`WITH ${sql.join(ctes, sql`, `)} SELECT ${sql.join(columns, sql`, `)}`);
      return ops.map((_, i) => row?.[`c${i}`] ?? 0);
    },
    async reset(key) {
      await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
    },
    async close() {},
  };
}

/** INCR, and the expiry set by the first hit of a window, atomically (one Lua script). */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n`;

const UNAVAILABLE = 'Le service est momentanément indisponible. Réessayez dans un instant.';

export function redisRateLimiter(url: string): RateLimiter {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  // An unreachable Redis must not crash the process: the error reaches the request (503/500 mapping).
  redis.on('error', () => {});
  const guarded = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch {
      throw new AppError(503, UNAVAILABLE);
    }
  };
  return {
    // Redis expires its keys itself: nothing to purge.
    hit: (key, windowSeconds) => guarded(async () => Number(await redis.eval(HIT_SCRIPT, 1, `olympe:rl:${key}`, String(windowSeconds)))),
    peek: (key) => guarded(async () => Number((await redis.get(`olympe:rl:${key}`)) ?? 0)),
    batch: (ops) =>
      guarded(async () => {
        const pipeline = redis.pipeline();
        for (const op of ops) {
          if (op.peek) pipeline.get(`olympe:rl:${op.key}`);
          else pipeline.eval(HIT_SCRIPT, 1, `olympe:rl:${op.key}`, String(op.windowSeconds));
        }
        const results = (await pipeline.exec()) ?? [];
        return results.map(([err, value]) => {
          if (err) throw err;
          return Number(value ?? 0);
        });
      }),
    reset: (key) => guarded(async () => void (await redis.del(`olympe:rl:${key}`))),
    async close() {
      redis.disconnect();
    },
  };
}

/** The limits to check in one `batch`, each with its message. */
export interface RateLimitCheck {
  key: string;
  limit: number;
  windowSeconds: number;
  message?: string;
}

/**
 * Counts a hit on every check's key and reads the peeks, in one round trip; throws 429 with the first
 * exceeded check's message. Returns the counts, checks then peeks.
 */
export async function hitRateLimits(
  limiter: RateLimiter,
  checks: RateLimitCheck[],
  peeks: Omit<RateLimitOp, 'peek'>[] = [],
): Promise<number[]> {
  for (const check of checks) assertWindow(check);
  const counts = await limiter.batch([...checks, ...peeks.map((p) => ({ ...p, peek: true }))]);
  checks.forEach((check, i) => {
    if (counts[i] > check.limit) throw tooMany(check.message);
  });
  return counts;
}

function assertWindow(opts: { key: string; windowSeconds: number }) {
  if (opts.windowSeconds > RATE_LIMIT_MAX_WINDOW_SECONDS)
    throw new Error(`rate limit window over ${RATE_LIMIT_MAX_WINDOW_SECONDS} s: ${opts.key}`);
}

export async function hitRateLimit(
  limiter: RateLimiter,
  opts: { key: string; limit: number; windowSeconds: number; message?: string },
): Promise<void> {
  assertWindow(opts);
  const count = await limiter.hit(opts.key, opts.windowSeconds);
  if (count > opts.limit) throw tooMany(opts.message);
}

/** Deletes the PostgreSQL counters whose window is over for any key; returns how many. */
export async function purgeExpiredRateLimits(db: Db): Promise<number> {
  const deleted = await rows(
    db,
    z.object({}),
    sql`
    DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => ${RATE_LIMIT_MAX_WINDOW_SECONDS})
    RETURNING 1`,
  );
  return deleted.length;
}

/** Every 10 minutes: a login flood leaves one row per address and e-mail tried. */
export const RATE_LIMIT_PURGE_MS = 10 * 60 * 1000;

/**
 * Purges at once and then every `everyMs` until stopped (the rate-limit rows, or what `purge` names: the
 * ended sessions of decision 136). Several instances may run it together: the
 * DELETE is idempotent.
 */
export function startRateLimitPurge(
  db: Db,
  log: FastifyBaseLogger,
  everyMs = RATE_LIMIT_PURGE_MS,
  purge: { run: (db: Db) => Promise<number>; what: string } = { run: purgeExpiredRateLimits, what: 'rate-limit' },
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = purge
      .run(db)
      .then((n) => {
        if (n > 0) log.info({ rows: n }, `expired ${purge.what} rows purged`);
      })
      .catch((err: unknown) => log.error({ err }, `${purge.what} purge failed`));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
