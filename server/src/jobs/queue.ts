import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client.js';
import { column, one } from '../db/query.js';
import { jobs } from '../db/schema.js';

/**
 * A job queue in the database (table `jobs`), so background work survives a restart and is shared
 * by several instances: each claims the oldest pending job with FOR UPDATE SKIP LOCKED (PGlite and
 * PostgreSQL alike), so two workers never take the same one.
 */

export interface Job {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
}

const jobRow = z.object({ id: z.string(), kind: z.string(), payload: z.record(z.string(), z.unknown()), attempts: column.number });

export interface ClaimOptions {
  /** Kinds this worker handles. */
  kinds: string[];
  /** A 'running' job locked longer ago than this was left by a stopped instance: it is taken again. */
  staleAfterMs: number;
  /** Attempts after which a job is marked failed instead of tried again. */
  maxAttempts: number;
}

export const JOB_DEFAULTS = { staleAfterMs: 10 * 60_000, maxAttempts: 3 } as const;

/** Adds a job; it runs as soon as a worker is free. */
export async function enqueueJob(db: Tx, kind: string, payload: Record<string, unknown>): Promise<string> {
  const [row] = await db.insert(jobs).values({ kind, payload }).returning({ id: jobs.id });
  return row.id;
}

/**
 * Takes the oldest job that is pending, or running but abandoned (its instance stopped mid-way),
 * and marks it running. Null when there is nothing to do.
 */
export async function claimJob(db: Db, opts: ClaimOptions): Promise<Job | null> {
  if (opts.kinds.length === 0) return null;
  const kinds = sql.join(
    opts.kinds.map((k) => sql`${k}`),
    sql`, `,
  );
  const staleBefore = new Date(Date.now() - opts.staleAfterMs).toISOString();
  // Abandoned jobs that already used their attempts are closed first, so they are not retried.
  await db
    .update(jobs)
    .set({
      status: 'failed',
      error: 'Abandonné trop de fois (arrêt du serveur pendant le traitement).',
      finishedAt: new Date(),
      lockedAt: null,
    })
    .where(
      and(
        eq(jobs.status, 'running'),
        sql`${jobs.lockedAt} < ${staleBefore}::timestamptz`,
        sql`${jobs.attempts} >= ${opts.maxAttempts}`,
        sql`${jobs.kind} IN (${kinds})`,
      ),
    );
  const row = await one(
    db,
    jobRow,
    sql`
    UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_at = now()
    WHERE id = (
      SELECT id FROM jobs
      WHERE kind IN (${kinds})
        AND (status = 'pending' OR (status = 'running' AND locked_at < ${staleBefore}::timestamptz))
        AND attempts < ${opts.maxAttempts}
        AND (not_before IS NULL OR not_before <= now())
      ORDER BY created_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, payload, attempts`,
  );
  return row ? { id: row.id, kind: row.kind, payload: row.payload, attempts: Number(row.attempts) } : null;
}

/** Records a job's result. */
export async function completeJob(db: Db, id: string, result: Record<string, unknown>): Promise<void> {
  await db.update(jobs).set({ status: 'done', result, error: null, lockedAt: null, finishedAt: new Date() }).where(eq(jobs.id, id));
}

/**
 * Records a failure: the job goes back to the queue until it has used its attempts, waiting
 * `retryAfterMs` first when given (back-off, e.g. a refused SMTP connection).
 */
export async function failJob(db: Db, job: Job, error: string, maxAttempts: number, retryAfterMs = 0): Promise<void> {
  const final = job.attempts >= maxAttempts;
  await db
    .update(jobs)
    .set({
      status: final ? 'failed' : 'pending',
      error: error.slice(0, 2000),
      lockedAt: null,
      finishedAt: final ? new Date() : null,
      notBefore: !final && retryAfterMs > 0 ? new Date(Date.now() + retryAfterMs) : null,
    })
    .where(eq(jobs.id, job.id));
}
