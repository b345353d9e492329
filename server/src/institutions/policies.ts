import type { AuthContext } from '../auth/context.js';
import { badRequest, forbidden } from '../errors.js';

/** Per-record rules on institutions (docs/architecture.md « Where things go »). */

const CONFIRM_FORBIDDEN = 'Seul un administrateur peut vérifier un établissement.';
const UAI_FORBIDDEN = 'Seul un administrateur peut donner le code UAI d’un établissement.';

/**
 * The school a staff member acts for: their own, from their membership on the server (never a field they
 * send); asking for another is 403, as docs/product.md#design-3 scopes staff rights by their school. Each
 * area words the two refusals for its own screen.
 */
export function ownInstitutionOf(
  auth: AuthContext,
  requested: string | null | undefined,
  refusals: { noSchool: string; otherSchool: string },
): string {
  if (!auth.institutionId) throw forbidden(refusals.noSchool);
  if (requested && requested !== auth.institutionId) throw forbidden(refusals.otherSchool);
  return auth.institutionId;
}

/**
 * The school a staff screen works on: an admin names any institution (or falls back to their own), staff
 * get their own ({@link ownInstitutionOf}).
 */
export function institutionInScope(
  auth: AuthContext,
  requested: string | undefined,
  refusals: { unnamed: string; noSchool: string; otherSchool: string },
): string {
  if (auth.isAdmin) {
    const id = requested ?? auth.institutionId;
    if (!id) throw badRequest(refusals.unnamed);
    return id;
  }
  return ownInstitutionOf(auth, requested, refusals);
}

/**
 * Admins manage the directory: they confirm a school and give its UAI (docs/product.md#spec-4 Institution), see the
 * schools still pending everywhere, and propose schools without the pending limit.
 */
export const canManageInstitutions = (auth: Pick<AuthContext, 'isAdmin'>): boolean => auth.isAdmin;

/** Only an admin confirms a school or gives its UAI (docs/product.md#spec-4 Institution). */
export function assertMaySetAdminFields(auth: AuthContext, input: { confirmed?: unknown; uai?: unknown }): void {
  if (input.confirmed !== undefined && !canManageInstitutions(auth)) throw forbidden(CONFIRM_FORBIDDEN);
  if (input.uai !== undefined && !canManageInstitutions(auth)) throw forbidden(UAI_FORBIDDEN);
}

/** An admin edits any institution; its creator edits it while it is not yet confirmed. */
export function assertMayEditInstitution(auth: AuthContext, row: { confirmed: boolean; createdBy: string | null }): void {
  if (auth.isAdmin) return;
  if (row.createdBy === auth.userId && !row.confirmed) return;
  throw forbidden('Vous ne pouvez pas modifier cet établissement.');
}

/** A school proposed by someone else and not yet confirmed is private to its author (decision 29). */
export function canChooseInstitution(auth: AuthContext, row: { confirmed: boolean; createdBy: string | null }): boolean {
  return row.confirmed || row.createdBy === auth.userId || auth.isAdmin;
}
