import type { CenterOverview, OverviewUser } from '@olympe/contract';
import { asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { matchAccessRule } from '../chapters/access.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { accessGroups, MEMBERS_GROUP_ID, TEACHERS_GROUP_ID } from '../db/schema.js';
import { qualificationsFor } from '../selections/qualification.js';
import { centerDayStats } from './attendance.js';
import { presentOverviewCentre, presentOverviewUser } from './presenters.js';
import { findPaperChapter, loadOptionRows, memberRowShape, registeredUsers } from './queries.js';

const unregisteredRowShape = memberRowShape.extend({ gender: z.string().nullable(), birth_date: z.string().nullable() });

/** The pupils (no admin, teacher or member) not registered at any centre of the chapter. */
async function unregisteredPupils(db: Db, chapterId: string) {
  return rows(
    db,
    unregisteredRowShape,
    sql`
    SELECT u.id, u.email, u.first_name, u.last_name, u.grade, u.gender, u.birth_date::text AS birth_date, u.institution_id, i.name AS institution_name
    FROM users u LEFT JOIN institutions i ON i.id = u.institution_id
    WHERE NOT u.is_admin
      AND NOT EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = u.id AND m.group_id IN (${TEACHERS_GROUP_ID}, ${MEMBERS_GROUP_ID}))
      AND NOT EXISTS (SELECT 1 FROM center_registrations r WHERE r.user_id = u.id AND r.chapter_id = ${chapterId})
    ORDER BY lower(coalesce(u.last_name, '')), lower(coalesce(u.first_name, '')), u.id`,
  );
}

/**
 * GET /center/overview/{chapterId} (admins): registrations grouped by centre, and the pupils who
 * may take the chapter (an access group admits them) but chose no centre yet.
 */
export async function getCenterOverview(db: Db, chapterId: string): Promise<CenterOverview> {
  await findPaperChapter(db, chapterId);
  const registered = await registeredUsers(db, chapterId);
  const centerRows = await loadOptionRows(db, chapterId, { ownId: null, withRegistered: true });
  const statsOf = new Map((await centerDayStats(db, chapterId)).map((s) => [s.institutionId, s.stats]));
  const byCenter = new Map<string, OverviewUser[]>();
  for (const r of registered) {
    const list = byCenter.get(r.center_id) ?? [];
    list.push(presentOverviewUser(r));
    byCenter.set(r.center_id, list);
  }
  const members = centerRows
    .filter((c) => byCenter.has(c.id))
    .map((c) => presentOverviewCentre(c, byCenter.get(c.id) ?? [], statsOf.get(c.id)));

  const rules = await db.select().from(accessGroups).where(eq(accessGroups.chapterId, chapterId)).orderBy(asc(accessGroups.position));
  const qualifiedIn = await qualificationsFor(db, rules, null);
  const unregistered = (await unregisteredPupils(db, chapterId))
    .filter((u) => matchAccessRule({ gender: u.gender, grade: u.grade, birthDate: u.birth_date, qualifiedIn: qualifiedIn(u.id) }, rules))
    .map(presentOverviewUser);
  return { unregistered, members };
}
