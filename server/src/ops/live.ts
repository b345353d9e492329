import type { LiveChapter } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { notFound } from '../errors.js';

const WINDOW_MINUTES = 15;

/**
 * GET /chapter/{id}/live: the figures of a running chapter, computed from the database so every
 * instance shows the same (DESIGN §4); only the error count is this instance's own. Answers are
 * read once, grouped by minute: a timed round holds about a million rows, so nothing here rescans them.
 */
export async function getLiveChapter(db: Db, chapterId: string, serverErrors: number): Promise<LiveChapter> {
  const result = await db.execute(sql`
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
    WHERE c.id = ${chapterId}::uuid`);
  const row = (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0];
  if (!row) throw notFound('Chapitre introuvable.');

  // One pass over the last minutes of answers: per minute, and who saved in the last 60 s.
  const recent = await db.execute(sql`
    SELECT floor(extract(epoch FROM (date_trunc('minute', now()) - date_trunc('minute', a.created_at))) / 60)::int AS ago,
      count(*)::int AS n,
      count(*) FILTER (WHERE a.created_at > now() - interval '1 minute')::int AS last_minute,
      array_agg(DISTINCT a.user_id::text) FILTER (WHERE a.created_at > now() - interval '1 minute') AS savers
    FROM answers a
    WHERE a.exercise_id IN (SELECT id FROM exercises WHERE chapter_id = ${chapterId}::uuid)
      AND a.created_at >= date_trunc('minute', now()) - ${WINDOW_MINUTES - 1} * interval '1 minute'
    GROUP BY 1`);
  const savesPerMinute: number[] = new Array(WINDOW_MINUTES).fill(0);
  const savers = new Set<string>();
  let answersLastMinute = 0;
  for (const r of (recent as unknown as { rows: Array<{ ago: number; n: number; last_minute: number; savers: string[] | null }> }).rows) {
    const ago = Number(r.ago);
    if (ago >= 0 && ago < WINDOW_MINUTES) savesPerMinute[WINDOW_MINUTES - 1 - ago] += Number(r.n);
    answersLastMinute += Number(r.last_minute);
    for (const id of r.savers ?? []) savers.add(id);
  }
  return {
    chapterId,
    title: String(row.title),
    at: new Date(row.at as string | Date).toISOString(),
    started: Number(row.started),
    inProgress: Number(row.in_progress),
    finished: Number(row.finished),
    savingLastMinute: savers.size,
    answersLastMinute,
    blurEvents: Number(row.blurs),
    blurEventsLastMinute: Number(row.blurs_last_minute),
    serverErrorsLastFiveMinutes: serverErrors,
    savesPerMinute,
  };
}
