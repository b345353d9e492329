import type { Center, CenterMember, CenterPatch } from '@olympe/contract';
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { centers } from '../db/schema.js';
import { queueCenterChange } from '../mail/notifications.js';
import { centerDayStats, detailsChange } from './attendance.js';
import { chapterStartOf, sittingFromWallClock } from './details.js';
import { assertMaySetPole, centerInstitutionOf } from './policies.js';
import { presentCenter, presentMember } from './presenters.js';
import { findCenterRow, findInstitution, findPaperChapter, registeredUsers } from './queries.js';

/** A school's own centre, as its staff (or an admin) manage it. */

/** GET /center/{chapterId}: the centre of the caller's school (or the admin's chosen one) and its registered pupils. */
export async function getCenter(db: Db, auth: AuthContext, chapterId: string, requested?: string): Promise<Center> {
  const institutionId = centerInstitutionOf(auth, requested);
  await findPaperChapter(db, chapterId);
  const institution = await findInstitution(db, institutionId);
  const row = await findCenterRow(db, chapterId, institutionId);
  const members = await registeredUsers(db, chapterId, institutionId);
  const [stats] = await centerDayStats(db, chapterId, institutionId);
  const chapterStart = await chapterStartOf(db, chapterId);
  return presentCenter({ institution, row, members, chapterStart, stats: stats?.stats });
}

/** GET /center/users/{chapterId}: the pupils registered at the caller's centre. */
export async function listCenterMembers(db: Db, auth: AuthContext, chapterId: string, requested?: string): Promise<CenterMember[]> {
  const institutionId = centerInstitutionOf(auth, requested);
  await findPaperChapter(db, chapterId);
  await findInstitution(db, institutionId);
  return (await registeredUsers(db, chapterId, institutionId)).map(presentMember);
}

/** The centre columns a patch writes (absent fields unchanged). */
function centerSetOf(patch: CenterPatch): Partial<typeof centers.$inferInsert> {
  const set: Partial<typeof centers.$inferInsert> = {};
  if (patch.opened !== undefined) set.opened = patch.opened;
  if (patch.instructions !== undefined) set.instructions = patch.instructions;
  if (patch.nb_places !== undefined) set.nbPlaces = patch.nb_places;
  if (patch.isPole !== undefined) set.isPole = patch.isPole;
  if (patch.sittingAt !== undefined) set.sittingAt = sittingFromWallClock(patch.sittingAt);
  if (patch.address !== undefined) set.address = patch.address?.trim() ? patch.address.trim() : null;
  if (patch.room !== undefined) set.room = patch.room.trim();
  if (patch.bring !== undefined) set.bring = patch.bring.trim();
  return set;
}

/**
 * PATCH /center/{chapterId}: the school's answer, instructions and places. Only an admin may mark
 * a pole centre. The update takes the centre row lock, so it serialises with registrations.
 */
export async function updateCenter(db: Db, auth: AuthContext, chapterId: string, patch: CenterPatch): Promise<void> {
  assertMaySetPole(auth, patch);
  const institutionId = centerInstitutionOf(auth, patch.institution);
  await findPaperChapter(db, chapterId);
  await findInstitution(db, institutionId);
  const set = centerSetOf(patch);
  await db.transaction(async (tx) => {
    const before = await findCenterRow(tx, chapterId, institutionId);
    const [after] = await tx
      .insert(centers)
      .values({ chapterId, institutionId, ...set })
      .onConflictDoUpdate({
        target: [centers.chapterId, centers.institutionId],
        set: Object.keys(set).length > 0 ? set : { chapterId },
      })
      .returning();
    // Registered pupils hear of a change of what they were told (decision 60), once per change.
    const change = detailsChange(before, after);
    if (change) {
      const at = new Date();
      await tx.update(centers).set({ detailsChangedAt: at }).where(eq(centers.id, after.id));
      await queueCenterChange(tx, { chapterId, institutionId, closed: change === 'closed', at });
    }
  });
}
