import type { LiveChapter } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { notFound } from '../errors.js';

const WINDOW_MINUTES = 15;

const liveRow = z.object({
  title: z.string(),
  at: column.date,
  started: column.number,
  in_progress: column.number,
  finished: column.number,
  blurs: column.number,
  blurs_last_minute: column.number,
});

const minuteRow = z.object({ ago: column.number, n: column.number, last_minute: column.number, savers: z.array(z.string()).nullable() });

const extensionRow = z.object({
  minutes: column.number,
  reason: z.string(),
  created_at: column.date,
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string(),
  by_name: z.string().nullable(),
  by_email: z.string().nullable(),
});

/**
 * GET /chapter/{id}/live: the figures of a running chapter, computed from the database so every
 * instance shows the same (docs/product.md#design-4); only the error count is this instance's own. Answers are
 * read once, grouped by minute: a timed round holds about a million rows, so nothing here rescans them.
 */
export async function getLiveChapter(db: Db, chapterId: string, serverErrors: number): Promise<LiveChapter> {
  const row = await liveTotals(db, chapterId);
  const { savesPerMinute, savers, answersLastMinute } = await recentSaves(db, chapterId);
  const extraTimePupils = await countExtraTimePupils(db, chapterId);
  const extensions = await listExtensions(db, chapterId);
  return {
    chapterId,
    title: row.title,
    at: row.at.toISOString(),
    started: row.started,
    inProgress: row.in_progress,
    finished: row.finished,
    savingLastMinute: savers.size,
    answersLastMinute,
    blurEvents: row.blurs,
    blurEventsLastMinute: row.blurs_last_minute,
    serverErrorsLastFiveMinutes: serverErrors,
    savesPerMinute,
    extraTimePupils,
    extensions: extensions.map((r) => ({
      user: { _id: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email },
      minutes: Number(r.minutes),
      reason: r.reason,
      by: r.by_name ?? r.by_email,
      at: new Date(r.created_at).toISOString(),
    })),
  };
}

/** The chapter's title, its sessions (started, in progress, finished) and its blur events; 404 when it is gone. */
async function liveTotals(db: Db, chapterId: string) {
  const row = await one(
    db,
    liveRow,
    sql`
    SELECT c.title, now() AS at,
      s.started, s.in_progress, s.finished,
      f.blurs, f.blurs_last_minute
    FROM chapters c,
      LATERAL (SELECT count(*)::int AS started,
                 count(*) FILTER (WHERE x.end_time IS NULL OR x.end_time > now())::int AS in_progress,
                 count(*) FILTER (WHERE x.end_time <= now())::int AS finished
               FROM chapter_sessions x WHERE x.chapter_id = c.id) s,
      LATERAL (SELECT count(*)::int AS blurs,
                 count(*) FILTER (WHERE e.created_at > now() - interval '1 minute')::int AS blurs_last_minute
               FROM focus_events e WHERE e.chapter_id = c.id AND e.event_type = 'blur') f
    WHERE c.id = ${chapterId}::uuid AND c.deleted_at IS NULL`,
  );
  if (!row) throw notFound('Chapitre introuvable.');
  return row;
}

/** One pass over the last minutes of answers: per minute, and who saved in the last 60 s. */
async function recentSaves(db: Db, chapterId: string) {
  const recent = await rows(
    db,
    minuteRow,
    sql`
    SELECT floor(extract(epoch FROM (date_trunc('minute', now()) - date_trunc('minute', a.created_at))) / 60)::int AS ago,
      count(*)::int AS n,
      count(*) FILTER (WHERE a.created_at > now() - interval '1 minute')::int AS last_minute,
      array_agg(DISTINCT a.user_id::text) FILTER (WHERE a.created_at > now() - interval '1 minute') AS savers
    FROM answers a
    WHERE a.exercise_id IN (SELECT id FROM exercises WHERE chapter_id = ${chapterId}::uuid AND deleted_at IS NULL)
      AND a.created_at >= date_trunc('minute', now()) - ${WINDOW_MINUTES - 1} * interval '1 minute'
    GROUP BY 1`,
  );
  const savesPerMinute: number[] = new Array(WINDOW_MINUTES).fill(0);
  const savers = new Set<string>();
  let answersLastMinute = 0;
  for (const r of recent) {
    const ago = Number(r.ago);
    if (ago >= 0 && ago < WINDOW_MINUTES) savesPerMinute[WINDOW_MINUTES - 1 - ago] += Number(r.n);
    answersLastMinute += Number(r.last_minute);
    for (const id of r.savers ?? []) savers.add(id);
  }
  return { savesPerMinute, savers, answersLastMinute };
}

/** Sessions of the chapter whose pupil has extra time. */
async function countExtraTimePupils(db: Db, chapterId: string): Promise<number> {
  const extra = await one(
    db,
    z.object({ n: column.number }),
    sql`
    SELECT count(*)::int AS n FROM chapter_sessions s JOIN users u ON u.id = s.user_id
    WHERE s.chapter_id = ${chapterId}::uuid AND u.extra_time_percent > 0`,
  );
  return Number(extra?.n ?? 0);
}

/** The chapter's last 200 extensions, newest first, with who granted them. */
function listExtensions(db: Db, chapterId: string) {
  return rows(
    db,
    extensionRow,
    sql`
    SELECT x.minutes, x.reason, x.created_at, u.id, u.first_name, u.last_name, u.email,
      nullif(trim(coalesce(b.first_name, '') || ' ' || coalesce(b.last_name, '')), '') AS by_name, b.email AS by_email
    FROM session_extensions x JOIN users u ON u.id = x.user_id LEFT JOIN users b ON b.id = x.created_by
    WHERE x.chapter_id = ${chapterId}::uuid
    ORDER BY x.created_at DESC, x.id LIMIT 200`,
  );
}
