import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { accessProfileOf, matchAccessRule, type ProfileColumns } from '../chapters/access.js';
import type { Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { accessGroups } from '../db/schema.js';
import { qualificationsFor } from '../selections/qualification.js';
import { isPupilSql } from '../sorting/pupils.js';
import { computeSessionState, extraMs } from '../sessions/state.js';

const pupilRow = z.object({
  id: z.string(),
  gender: z.string().nullable(),
  grade: z.string().nullable(),
  birth_date: z.string().nullable(),
  access_gender: z.string().nullable(),
  access_grade: z.string().nullable(),
  access_birth_date: z.string().nullable(),
  started_ms: z.number().nullable(),
  finished_ms: z.number().nullable(),
  extra_time_percent: column.numberOrNull,
  extension_minutes: column.number,
  took_part: z.boolean(),
}) satisfies z.ZodType<ProfileColumns>;

/**
 * Decision 139: how many pupils may still answer the chapter at `at`, each by their own window (the access
 * group that admits them, its end pushed back by their extra time and extensions, their timed deadline, an
 * early finish), as sessions/state.ts decides it. Counted: a pupil who began (a session or an answer) and
 * whose time is not over; a pupil who did not begin while a window with an end is still open to them (they may
 * still start). Not counted: a pupil who did not begin a window without an end (publishing is what closes it).
 */
export async function countStillAnswering(db: Tx, chapterId: string, at: Date): Promise<number> {
  const groups = await db.select().from(accessGroups).where(eq(accessGroups.chapterId, chapterId)).orderBy(asc(accessGroups.position));
  if (groups.length === 0) return 0;
  const pupils = await rows(
    db,
    pupilRow,
    sql`SELECT u.id, u.gender, u.grade, u.birth_date::text AS birth_date,
          s.access_gender, s.access_grade, s.access_birth_date::text AS access_birth_date,
          (extract(epoch FROM s.started_at) * 1000)::float8 AS started_ms,
          (extract(epoch FROM s.finished_at) * 1000)::float8 AS finished_ms,
          u.extra_time_percent,
          (SELECT coalesce(sum(x.minutes), 0)::int FROM session_extensions x WHERE x.chapter_id = ${chapterId}::uuid AND x.user_id = u.id) AS extension_minutes,
          (s.user_id IS NOT NULL OR EXISTS (SELECT 1 FROM chapter_pupils cp WHERE cp.chapter_id = ${chapterId}::uuid AND cp.user_id = u.id)) AS took_part
        FROM users u LEFT JOIN chapter_sessions s ON s.chapter_id = ${chapterId}::uuid AND s.user_id = u.id
        WHERE ${isPupilSql(sql`u`)}`,
  );
  const qualifiedIn = await qualificationsFor(db, groups, null);
  let count = 0;
  for (const p of pupils) {
    const session =
      p.started_ms === null
        ? null
        : { startedAt: new Date(Number(p.started_ms)), finishedAt: p.finished_ms === null ? null : new Date(Number(p.finished_ms)) };
    const rule = matchAccessRule({ ...accessProfileOf(p, session !== null), qualifiedIn: qualifiedIn(p.id) }, groups);
    if (!rule) continue;
    const allowance = { extraTimePercent: Number(p.extra_time_percent ?? 0), extensionMinutes: Number(p.extension_minutes) };
    if (!p.took_part) {
      if (rule.accessEnd && rule.accessEnd.getTime() + extraMs(rule, allowance) > at.getTime()) count++;
      continue;
    }
    if (computeSessionState({ now: at, rule, session, allowance }).status !== 'after') count++;
  }
  return count;
}
