import type { ChapterSummary } from '@olympe/contract';
import { asc, eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { accessGroups, chapters, users } from '../db/schema.js';
import { matchAccessRule } from './access.js';

/**
 * GET /chapter (DESIGN §3): admins and members see every chapter; teachers the paper ones;
 * everyone else the chapters where one of the access groups admits them.
 */
export async function listVisibleChapters(db: Db, auth: AuthContext): Promise<ChapterSummary[]> {
  const all = await db.select().from(chapters).orderBy(asc(chapters.createdAt), asc(chapters.title));
  const present = (c: typeof chapters.$inferSelect): ChapterSummary => ({
    _id: c.id,
    title: c.title,
    analysis: c.analysis,
    offline: c.offline,
  });
  if (auth.isAdmin || auth.isMember) return all.map(present);

  const [me] = await db
    .select({ gender: users.gender, grade: users.grade, birthDate: users.birthDate })
    .from(users)
    .where(eq(users.id, auth.userId));
  const rules = await db.select().from(accessGroups).orderBy(asc(accessGroups.position));
  const rulesOf = (chapterId: string) => rules.filter((r) => r.chapterId === chapterId);
  return all
    .filter((c) => (auth.isTeacher && c.offline) || (me && matchAccessRule(me, rulesOf(c.id)) !== null))
    .map(present);
}
