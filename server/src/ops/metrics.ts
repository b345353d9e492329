import { sql, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, one, rows } from '../db/query.js';

/**
 * Prometheus metrics of one instance (docs/operations.md "Watching"). Request figures are counted
 * in this process (Prometheus sums the instances); the gauges read from the database are the same
 * on every instance: aggregate them with max(), not sum().
 */
export interface Metrics {
  registry: Registry;
  observe(request: FastifyRequest, reply: FastifyReply): void;
  /** 5xx answers of this instance in the last `seconds` (the live chapter page). */
  recentServerErrors(seconds: number, nowMs?: number): number;
  /** Files nothing referenced, removed by this instance's reaper (decision 133). */
  countReapedFiles(count: number): void;
}

const SAVE_ROUTE = 'POST /api/answer';

/** The figures this instance counts itself: requests, their durations, saves, reaped files. */
function instanceCounters(registry: Registry) {
  const requests = new Counter({
    name: 'olympe_http_requests_total',
    help: 'HTTP requests by route template, method and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'olympe_http_request_duration_seconds',
    help: 'HTTP request duration by route template and method',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const answersSaved = new Counter({
    name: 'olympe_answers_saved_total',
    help: 'Answers accepted by POST /api/answer on this instance',
    registers: [registry],
  });
  const filesReaped = new Counter({
    name: 'olympe_files_reaped_total',
    help: 'Uploaded files that nothing referenced after a day, removed by this instance (decision 133)',
    registers: [registry],
  });
  return { requests, durations, answersSaved, filesReaped };
}

/** A gauge read from the database at each scrape. */
function countGauge(registry: Registry, db: Db, name: string, help: string, query: SQL) {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set(await countOf(db, query));
    },
  });
}

/** The gauges read from the database: the same on every instance. */
function databaseGauges(registry: Registry, db: Db) {
  countGauge(
    registry,
    db,
    'olympe_active_timed_sessions',
    'Timed chapter sessions whose deadline is still ahead (whole database)',
    sql`SELECT count(*)::int AS n FROM chapter_sessions WHERE end_time > now()`,
  );
  countGauge(
    registry,
    db,
    'olympe_pdfs_to_sort',
    'Uploaded scans waiting to be labelled (whole database)',
    sql`SELECT count(*)::int AS n FROM unlabeled_answers WHERE labeled_at IS NULL`,
  );
  countGauge(
    registry,
    db,
    'olympe_jobs_queued',
    'Background jobs (QR decoding of scans) pending or running (whole database)',
    sql`SELECT count(*)::int AS n FROM jobs WHERE status IN ('pending', 'running')`,
  );
  new Gauge({
    name: 'olympe_mail_deliveries',
    help: 'Notification mails by kind and status: pending, sent, failed, skipped (whole database)',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const list = await rows(
        db,
        z.object({ kind: z.string(), status: z.string(), n: column.number }),
        sql`
        SELECT kind, status, count(*)::int AS n FROM mail_deliveries GROUP BY kind, status`,
      );
      for (const r of list) this.set({ kind: r.kind, status: r.status }, Number(r.n));
    },
  });
}

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'olympe_' });
  const { requests, durations, answersSaved, filesReaped } = instanceCounters(registry);
  databaseGauges(registry, db);

  // A ring of recent 5xx timestamps, enough for "errors in the last minutes" without a table.
  const errors: number[] = [];

  return {
    registry,
    observe(request, reply) {
      // The route template, never the raw URL: ids in paths would explode the label count.
      const template = request.routeOptions?.url;
      const route = template ?? 'unmatched';
      const status = reply.statusCode;
      requests.inc({ method: request.method, route, status: String(status) });
      durations.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      if (`${request.method} ${route}` === SAVE_ROUTE && status < 300) answersSaved.inc();
      if (status >= 500) {
        errors.push(Date.now());
        if (errors.length > 10_000) errors.splice(0, errors.length - 10_000);
      }
    },
    countReapedFiles(count) {
      filesReaped.inc(count);
    },
    recentServerErrors(seconds, nowMs = Date.now()) {
      const since = nowMs - seconds * 1000;
      return errors.filter((t) => t >= since).length;
    },
  };
}

async function countOf(db: Db, query: SQL): Promise<number> {
  try {
    return Number((await one(db, z.object({ n: column.number }), query))?.n ?? 0);
  } catch {
    // A scrape must not fail because the database blinked: the gauge reads -1 instead.
    return -1;
  }
}
