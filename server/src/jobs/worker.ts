import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.js';
import { claimJob, completeJob, enqueueJob, failJob, JOB_DEFAULTS, type ClaimOptions, type Job } from './queue.js';

/** Does one job; what it returns is stored as the job's result. Throwing retries it later. */
export type JobHandler = (job: Job) => Promise<Record<string, unknown>>;

export interface WorkerDeps {
  db: Db;
  log: FastifyBaseLogger;
}

export interface RunOptions extends Partial<Omit<ClaimOptions, 'kinds'>> {
  /** Checked between jobs: a stopping server finishes the job in hand and takes no other. */
  shouldStop?: () => boolean;
  /** Back-off before the n-th retry of a failed job (n = attempts so far); none by default. */
  retryDelayMs?: (attempts: number) => number;
  /** Called before each job: the mail worker waits there to keep its configured rate. */
  beforeJob?: () => Promise<void>;
}

/**
 * Wakes this process's workers when a job is added here, so a scan is read at once rather than at
 * the next poll. Only a shortcut: a job added by another instance is found by polling.
 */
const wake = new EventEmitter();

/** Adds a job and wakes this process's workers. */
export async function addJob(db: Tx, kind: string, payload: Record<string, unknown>): Promise<string> {
  const id = await enqueueJob(db, kind, payload);
  wake.emit('job');
  return id;
}

/** Wakes this process's workers after jobs were inserted in bulk (users/import.ts). */
export function wakeJobWorkers(): void {
  wake.emit('job');
}

/**
 * Runs queued jobs one after another until none is left (or `shouldStop`); returns how many ran.
 * Tests call it directly to run the queue deterministically.
 */
export async function runPendingJobs(deps: WorkerDeps, handlers: Record<string, JobHandler>, opts: RunOptions = {}): Promise<number> {
  const claim: ClaimOptions = {
    kinds: Object.keys(handlers),
    staleAfterMs: opts.staleAfterMs ?? JOB_DEFAULTS.staleAfterMs,
    maxAttempts: opts.maxAttempts ?? JOB_DEFAULTS.maxAttempts,
  };
  let count = 0;
  while (!opts.shouldStop?.()) {
    await opts.beforeJob?.();
    const job = await claimJob(deps.db, claim);
    if (!job) break;
    count++;
    const started = performance.now();
    try {
      const result = await handlers[job.kind](job);
      await completeJob(deps.db, job.id, result);
      deps.log.info({ job: job.id, kind: job.kind, ms: Math.round(performance.now() - started) }, 'job done');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      deps.log.error({ job: job.id, kind: job.kind, attempt: job.attempts, err }, 'job failed');
      await failJob(deps.db, job, message, claim.maxAttempts, opts.retryDelayMs?.(job.attempts) ?? 0);
    }
  }
  return count;
}

export interface JobWorker {
  stop(): Promise<void>;
}

/**
 * Runs the queue in the background: at start (jobs left by a restart), when a job is added in this
 * process, and every `pollMs` for jobs added elsewhere. `stop` waits for the job in hand.
 */
export function startJobWorker(deps: WorkerDeps, handlers: Record<string, JobHandler>, opts: RunOptions & { pollMs: number }): JobWorker {
  let stopped = false;
  let again = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    running = runPendingJobs(deps, handlers, { ...opts, shouldStop: () => stopped })
      .then(() => undefined)
      .catch((err: unknown) => deps.log.error({ err }, 'job queue unavailable'))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          setImmediate(tick);
        } else {
          timer = setTimeout(tick, opts.pollMs);
          timer.unref();
        }
      });
  };

  wake.on('job', tick);
  setImmediate(tick);
  return {
    async stop() {
      stopped = true;
      wake.off('job', tick);
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
