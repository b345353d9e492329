import { isProfileComplete, type ProfileUpdate, type User } from '@olympe/contract';
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { institutions, users } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { presentUser } from './presenters.js';

/** Loads one user as the API presents it. */
export async function getUserById(db: Db, userId: string, roles: { isMember: boolean; isTeacher: boolean }): Promise<User> {
  const [row] = await db
    .select({ user: users, institution: { id: institutions.id, name: institutions.name, email: institutions.email } })
    .from(users)
    .leftJoin(institutions, eq(institutions.id, users.institutionId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('Utilisateur introuvable.');
  return presentUser(row.user, row.institution, roles);
}

/** PUT /auth/me: updates the caller's own profile fields (never flags) and returns the user. */
export async function updateOwnProfile(db: Db, auth: AuthContext, input: ProfileUpdate): Promise<User> {
  const { institution, ...fields } = input;
  const changes: Partial<typeof users.$inferInsert> = { ...fields };
  if (institution !== undefined) {
    if (institution !== null) {
      const [found] = await db.select({ id: institutions.id }).from(institutions).where(eq(institutions.id, institution));
      if (!found) throw badRequest('Cet établissement n’existe pas.');
    }
    changes.institutionId = institution;
  }
  if (Object.keys(changes).length > 0) await db.update(users).set(changes).where(eq(users.id, auth.userId));
  return getUserById(db, auth.userId, auth);
}

export const PROFILE_INCOMPLETE_MESSAGE = 'Complétez votre profil pour accéder aux contenus.';

/**
 * SPEC §5 / §6: a user whose profile is incomplete gets no chapter content. The rule is the one
 * `isProfileComplete` of the contract, shared with the web app's sidebar.
 */
export async function assertProfileComplete(db: Db, auth: AuthContext): Promise<void> {
  const user = await getUserById(db, auth.userId, auth);
  const groupNames = [...(auth.isTeacher ? ['teachers'] : []), ...(auth.isMember ? ['members'] : [])];
  if (!isProfileComplete(user, groupNames)) throw forbidden(PROFILE_INCOMPLETE_MESSAGE);
}
