import type { GroupSummary } from '@olympe/contract';
import { asc, eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { groupMembers, groups } from '../db/schema.js';

/** GET /group: the caller's own groups; admins see every group. */
export async function listVisibleGroups(db: Db, auth: AuthContext): Promise<GroupSummary[]> {
  const rows = auth.isAdmin
    ? await db.select({ id: groups.id, name: groups.name }).from(groups).orderBy(asc(groups.createdAt), asc(groups.name))
    : await db
        .select({ id: groups.id, name: groups.name })
        .from(groups)
        .innerJoin(groupMembers, eq(groupMembers.groupId, groups.id))
        .where(eq(groupMembers.userId, auth.userId))
        .orderBy(asc(groups.name));
  return rows.map((g) => ({ _id: g.id, name: g.name }));
}
