import { type ProfileUpdate, type User } from '@olympe/contract';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { chapterSessions, institutions, users } from '../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { canChooseInstitution } from '../institutions/policies.js';
import { hitRateLimits, type RateLimiter } from '../http/rate-limit.js';
import { wakeJobWorkers } from '../jobs/worker.js';
import {
  ADDRESS_CONFIRM_PER_ADDRESS_LIMIT,
  FAMILY_ADDRESS_LIMIT,
  FAMILY_ADDRESS_LIMIT_MESSAGE,
  familyAddressesOf,
  pendingFamilyAddresses,
  syncFamilyAddresses,
} from '../mail/family-addresses.js';
import { assertMayChangeSchool, assertMayReadContent } from './policies.js';

export { PROFILE_INCOMPLETE_MESSAGE } from './policies.js';
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
  return { ...presentUser(row.user, row.institution, roles), pendingEmails: await pendingFamilyAddresses(db, row.user) };
}

export const RUNNING_TEST_PROFILE_MESSAGE =
  'Une épreuve en temps limité est en cours : votre classe, votre genre, votre date de naissance et votre établissement ne peuvent pas changer avant sa fin.';

/** The profile fields that decide access to a chapter or a school's staff rights. */
const DECIDING_FIELDS = ['gender', 'grade', 'birthDate', 'institutionId'] as const;

/**
 * PUT /auth/me: updates the caller's own profile fields (never flags) and returns the user.
 * Rights never follow a field users edit themselves: school staff cannot move to another school
 * (their rights are scoped by it; an admin does it), and no deciding field changes while a timed
 * session runs (the session also keeps the fields it started with: sessions/service.ts).
 */
export async function updateOwnProfile(db: Db, limiter: RateLimiter, auth: AuthContext, input: ProfileUpdate): Promise<User> {
  const { institution, ...fields } = input;
  const changes: Partial<typeof users.$inferInsert> = { ...fields };
  const [current] = await db
    .select({
      institutionId: users.institutionId,
      gender: users.gender,
      grade: users.grade,
      birthDate: users.birthDate,
      email: users.email,
      emailStudent: users.emailStudent,
      emailParent: users.emailParent,
      emailOtherParent: users.emailOtherParent,
    })
    .from(users)
    .where(eq(users.id, auth.userId));
  if (!current) throw notFound('Utilisateur introuvable.');
  if (institution !== undefined) {
    if (institution !== null && institution !== current.institutionId) {
      const [found] = await db
        .select({ id: institutions.id, confirmed: institutions.confirmed, createdBy: institutions.createdBy })
        .from(institutions)
        .where(eq(institutions.id, institution));
      // A school proposed by someone else and not yet confirmed is private to its author (decision 29).
      if (!found || !canChooseInstitution(auth, found)) throw badRequest('Cet établissement n’existe pas.');
    }
    changes.institutionId = institution;
  }
  const changed = DECIDING_FIELDS.filter((f) => changes[f] !== undefined && (changes[f] ?? null) !== (current[f] ?? null));
  assertMayChangeSchool(auth, changed);
  if (changed.length > 0 && (await hasRunningTimedSession(db, auth.userId))) throw conflict(RUNNING_TEST_PROFILE_MESSAGE);
  if (changed.includes('institutionId') && current.institutionId) {
    changes.previousInstitutionId = current.institutionId;
    changes.institutionChangedAt = new Date();
  }
  const mailNow = await mayMailNewFamilyAddresses(limiter, auth.userId, current, changes);
  if (Object.keys(changes).length > 0) {
    await db.transaction(async (tx) => {
      await tx.update(users).set(changes).where(eq(users.id, auth.userId));
      // Decision 134: a new family address gets its confirmation mail; a changed one starts over.
      if (FAMILY_FIELDS.some((f) => changes[f] !== undefined)) await syncFamilyAddresses(tx, [auth.userId], { mail: mailNow });
    });
    wakeJobWorkers();
  }
  return getUserById(db, auth.userId, auth);
}

const FAMILY_FIELDS = ['emailStudent', 'emailParent', 'emailOtherParent'] as const;

/**
 * Each family address added mails a confirmation to someone the pupil named: a pupil adds addresses
 * a few times an hour at most, and one address is asked a few times an hour at most (decision 134).
 * Past either, the profile is still saved (a pupil is never kept from their test by a parent's address
 * that classmates typed too): the address waits unconfirmed, and its link leaves with the next convocation.
 */
async function mayMailNewFamilyAddresses(
  limiter: RateLimiter,
  userId: string,
  current: Pick<typeof users.$inferSelect, 'email' | 'emailStudent' | 'emailParent' | 'emailOtherParent'>,
  changes: Partial<typeof users.$inferInsert>,
): Promise<boolean> {
  const before = new Set(familyAddressesOf(current));
  const fresh = familyAddressesOf({ ...current, ...changes }).filter((a) => !before.has(a));
  if (fresh.length === 0) return true;
  try {
    await hitRateLimits(limiter, [
      { key: `family-address:${userId}`, ...FAMILY_ADDRESS_LIMIT, message: FAMILY_ADDRESS_LIMIT_MESSAGE },
      ...fresh.map((a) => ({ key: `address-confirm:${a}`, ...ADDRESS_CONFIRM_PER_ADDRESS_LIMIT, message: FAMILY_ADDRESS_LIMIT_MESSAGE })),
    ]);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 429) return false;
    throw error;
  }
}

/** A timed session started and not yet over (its deadline fixed at start is still ahead). */
async function hasRunningTimedSession(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: chapterSessions.userId })
    .from(chapterSessions)
    .where(and(eq(chapterSessions.userId, userId), gt(chapterSessions.endTime, sql`now()`)))
    .limit(1);
  return !!row;
}

/**
 * docs/product.md#spec-5 / §6: a user whose profile is incomplete gets no chapter content. The rule is the one
 * `isProfileComplete` of the contract, shared with the web app's sidebar.
 */
export async function assertProfileComplete(db: Db, auth: AuthContext): Promise<void> {
  assertMayReadContent(auth, await getUserById(db, auth.userId, auth));
}
