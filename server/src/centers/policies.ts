import type { CenterStatus } from '@olympe/contract';
import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';
import { institutionInScope } from '../institutions/policies.js';

/** Per-record rules on exam centres (docs/architecture.md « Where things go »). */

/**
 * docs/product.md#design-3 "Who may call what": school staff reach only their own institution's centre; an
 * admin names any institution (or falls back to their own).
 */
export function centerInstitutionOf(auth: AuthContext, requested?: string): string {
  return institutionInScope(auth, requested, {
    unnamed: 'Indiquez l’établissement du centre.',
    noSchool: 'Renseignez votre établissement dans votre profil pour gérer son centre.',
    otherSchool: 'Vous ne pouvez gérer que le centre de votre établissement.',
  });
}

/**
 * docs/product.md#spec-6: pupils choose a centre, and so does a teacher who is also a member; a member or a
 * teacher alone does not. Admins may do everything.
 */
export function assertMayChooseCenter(auth: AuthContext): void {
  if (auth.isAdmin) return;
  if (auth.isTeacher && !auth.isMember)
    throw forbidden('Le personnel scolaire gère le centre de son établissement et ne choisit pas de centre.');
  if (auth.isMember && !auth.isTeacher) throw forbidden('Les correcteurs ne choisissent pas de centre.');
}

/** Only an admin marks a pole centre. */
export function assertMaySetPole(auth: AuthContext, patch: { isPole?: boolean }): void {
  if (patch.isPole !== undefined && !auth.isAdmin) throw forbidden('Seul un administrateur peut désigner un centre pôle.');
}

/** Admins see every centre of the selection map directly, and the schools where pupils registered. */
export const canSeeEveryCentre = (auth: AuthContext): boolean => auth.isAdmin;

/**
 * Who gets which convocations (GET /center/convocation): school staff and admins every pupil of the centre, a
 * pupil (or a teacher who is also a member) their own.
 */
export const canGetCentreConvocations = (auth: AuthContext): boolean => auth.isAdmin || (auth.isTeacher && !auth.isMember);

/** Who looks at the selection map. */
export interface Viewer {
  isAdmin: boolean;
  defaultChoice: string | null;
  institutionId: string | null;
}

/**
 * docs/product.md#spec-2 Centre selection: pole centres are always shown; a pupil whose default choice is local
 * also sees their own school and the other schools that answered or may answer (unknown, yes,
 * full); everything else (for a global pupil: all but the poles) waits behind the "more" button.
 * Admins see every centre directly.
 */
export function isExtraOption(viewer: Viewer, option: { institutionId: string; status: CenterStatus }): boolean {
  if (viewer.isAdmin || option.status === 'center') return false;
  if (viewer.defaultChoice !== 'local') return true;
  if (option.institutionId === viewer.institutionId) return false;
  return option.status === 'no';
}
