import { isProfileComplete } from '@olympe/contract';
import type { AuthContext } from '../auth/context.js';
import { badRequest, forbidden } from '../errors.js';
import { ownInstitutionOf } from '../institutions/policies.js';

/** Per-record rules on accounts (docs/architecture.md « Where things go »). */

export const PROFILE_INCOMPLETE_MESSAGE = 'Complétez votre profil pour accéder aux contenus.';

const STAFF_SCHOOL_MESSAGE = 'Vous êtes enregistré comme personnel de votre établissement : pour en changer, demandez à un administrateur.';

/**
 * GET /user/{uid}: a user sees themself, admins see anyone. Correctors no longer read other accounts
 * (decision 128): no screen of theirs needs a pupil's personal data, and under anonymous correction it
 * would name a copy.
 */
export function assertMaySeeUser(auth: AuthContext, uid: string): void {
  if (auth.userId !== uid && !auth.isAdmin) throw forbidden();
}

/** POST /user/logto (docs/product.md#design-3): an admin's account is never impersonated. */
export function assertMayImpersonate(target: { isAdmin: boolean }): void {
  if (target.isAdmin) throw forbidden('Impossible de simuler un administrateur.');
}

/** School staff keep their school: only an admin moves them (their rights follow it, docs/security.md). */
export function assertMayChangeSchool(auth: AuthContext, changed: readonly string[]): void {
  if (changed.includes('institutionId') && auth.isTeacher && !auth.isAdmin) throw forbidden(STAFF_SCHOOL_MESSAGE);
}

/**
 * Which school an import fills: an admin names it; school staff import into their own school only
 * (asking for another is 403, as docs/product.md#design-3 scopes staff rights by their school).
 */
export function importSchoolOf(auth: AuthContext, requested: string | undefined): string {
  if (auth.isAdmin) {
    if (!requested) throw badRequest('Choisissez l’établissement dans lequel inscrire les élèves.');
    return requested;
  }
  return ownInstitutionOf(auth, requested, {
    noSchool: 'Votre compte n’est rattaché à aucun établissement : demandez à un administrateur.',
    otherSchool: 'Vous ne pouvez inscrire des élèves que dans votre établissement.',
  });
}

/** docs/product.md#spec-5 / §6: chapter content is for a complete profile, by the contract's `isProfileComplete`. */
export function assertMayReadContent(auth: AuthContext, user: Parameters<typeof isProfileComplete>[0]): void {
  const groupNames = [...(auth.isTeacher ? ['teachers'] : []), ...(auth.isMember ? ['members'] : [])];
  if (!isProfileComplete(user, groupNames)) throw forbidden(PROFILE_INCOMPLETE_MESSAGE);
}
