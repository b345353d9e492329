import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { groupMembers, groups } from '../db/schema.js';

export const DEMO_GROUP_NAME = 'Stage d’été 2026';

/** Demo data (npm run demo): a summer-camp group holding the given users. Idempotent; returns the group id. */
export async function seedGroupsDemo(db: Db, userIds: string[]): Promise<string> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.name, DEMO_GROUP_NAME));
    const id = existing?.id ?? (await tx.insert(groups).values({ name: DEMO_GROUP_NAME }).returning({ id: groups.id }))[0].id;
    if (userIds.length > 0) {
      await tx
        .insert(groupMembers)
        .values(userIds.map((userId) => ({ groupId: id, userId })))
        .onConflictDoNothing();
    }
    return id;
  });
}
