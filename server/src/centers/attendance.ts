import type { AttendanceBody, CenterDayStats } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import type { centers } from '../db/schema.js';
import { badRequest } from '../errors.js';

type CenterRow = typeof centers.$inferSelect;

const sameInstant = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * Decision 60: what registered pupils must hear about — the centre closed (opened turned false), or
 * its date, address or room changed once it was open. Instructions and places are not mailed
 * (they change often while a school prepares); null when nothing to say.
 */
export function detailsChange(before: CenterRow | null, after: CenterRow): 'closed' | 'changed' | null {
  if (!before) return null;
  if (before.opened !== false && after.opened === false) return 'closed';
  if (after.opened !== true && !after.isPole) return null;
  const changed =
    !sameInstant(before.sittingAt, after.sittingAt) ||
    (before.address ?? '') !== (after.address ?? '') ||
    before.room !== after.room ||
    before.bring !== after.bring;
  return changed ? 'changed' : null;
}

const statsRowShape = z.object({
  institution_id: z.string(),
  registered: column.number,
  present: column.number,
  absent: column.number,
  copies: column.number,
  pages_sorted: column.number,
});

/** Per centre of a chapter (or one): registered, present, absent, copies received, pages sorted. */
export async function centerDayStats(
  db: Tx,
  chapterId: string,
  institutionId?: string,
): Promise<Array<{ institutionId: string; stats: CenterDayStats }>> {
  const onlyRegistrations = institutionId ? sql`AND institution_id = ${institutionId}` : sql``;
  const onlyCopies = institutionId ? sql`AND u.institution_id = ${institutionId}` : sql``;
  const list = await rows(
    db,
    statsRowShape,
    sql`
    WITH regs AS (
      SELECT institution_id, count(*)::int AS registered,
        count(*) FILTER (WHERE present)::int AS present,
        count(*) FILTER (WHERE present = false)::int AS absent
      FROM center_registrations WHERE chapter_id = ${chapterId} ${onlyRegistrations}
      GROUP BY institution_id),
    copies AS (
      SELECT u.institution_id, count(*)::int AS copies,
        coalesce(sum(f.pages) FILTER (WHERE u.labeled_at IS NOT NULL), 0)::int AS pages_sorted
      FROM unlabeled_answers u JOIN files f ON f.id = u.file_id
      WHERE u.chapter_id = ${chapterId} AND u.institution_id IS NOT NULL ${onlyCopies}
      GROUP BY u.institution_id)
    SELECT coalesce(r.institution_id, c.institution_id) AS institution_id,
      coalesce(r.registered, 0)::int AS registered, coalesce(r.present, 0)::int AS present,
      coalesce(r.absent, 0)::int AS absent, coalesce(c.copies, 0)::int AS copies,
      coalesce(c.pages_sorted, 0)::int AS pages_sorted
    FROM regs r FULL JOIN copies c ON c.institution_id = r.institution_id`,
  );
  return list.map((r) => ({
    institutionId: r.institution_id,
    stats: {
      registered: Number(r.registered),
      present: Number(r.present),
      absent: Number(r.absent),
      copies: Number(r.copies),
      pagesSorted: Number(r.pages_sorted),
    },
  }));
}

/**
 * PUT /center/attendance/{chapterId}: the staff's ticks (or scans) for pupils registered at their
 * centre. All or nothing: one pupil who is not registered there refuses the whole list.
 */
export async function recordAttendance(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  institutionId: string,
  body: AttendanceBody,
): Promise<number> {
  const byUser = new Map(body.map((a) => [a.user.toLowerCase(), a.present]));
  return db.transaction(async (tx) => {
    const registered = await rows(
      tx,
      z.object({ user_id: z.string() }),
      sql`
      SELECT user_id FROM center_registrations
      WHERE chapter_id = ${chapterId} AND institution_id = ${institutionId}
        AND user_id IN (${sql.join(
          [...byUser.keys()].map((u) => sql`${u}`),
          sql`, `,
        )})
      FOR UPDATE`,
    );
    if (registered.length !== byUser.size) {
      throw badRequest(
        `${byUser.size - registered.length} élève(s) de la liste ne sont pas inscrits dans ce centre : rien n’a été enregistré.`,
      );
    }
    const present = [...byUser].filter(([, p]) => p).map(([u]) => sql`${u}`);
    const absent = [...byUser].filter(([, p]) => !p).map(([u]) => sql`${u}`);
    for (const [ids, value] of [
      [present, true],
      [absent, false],
    ] as const) {
      if (ids.length === 0) continue;
      await tx.execute(sql`
        UPDATE center_registrations SET present = ${value}, attendance_at = now(), attendance_by = ${auth.userId}
        WHERE chapter_id = ${chapterId} AND user_id IN (${sql.join(ids, sql`, `)})`);
    }
    await audit(tx, auth, 'center.attendance', chapterId, { chapterId, institutionId, present: present.length, absent: absent.length });
    return byUser.size;
  });
}
