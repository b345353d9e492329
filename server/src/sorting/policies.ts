import { hasRole, type AuthContext } from '../auth/context.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { ownInstitutionOf } from '../institutions/policies.js';

/** Per-record rules on scanned copies waiting for sorting (docs/architecture.md « Where things go »). */

/** What the labelling rule reads of a copy. */
export interface LabelledCopy {
  labeled: boolean;
  reserved_by: string | null;
  reservation_active: boolean;
}

/** Only the sorter holding the copy, or an admin, may label it; a labelled copy stays labelled. */
export function assertMayLabel<T extends LabelledCopy>(auth: AuthContext, copy: T | undefined): asserts copy is T {
  if (!copy) throw notFound('Copie à trier introuvable.');
  if (copy.labeled) throw conflict('Cette copie a déjà été triée.');
  if (auth.isAdmin || copy.reserved_by === auth.userId) return;
  if (copy.reserved_by && copy.reservation_active) throw conflict('Cette copie est en cours de tri par une autre personne.');
  throw forbidden('Cette copie ne vous est pas réservée : ouvrez-la depuis la page Triage.');
}

/** GET /answer/unlabeled/{chapterId}: members and admins see every school's scans, school staff their own school's. */
export const canSeeEverySchoolsScans = (auth: AuthContext): boolean => hasRole(auth, 'member');

/**
 * The institution a scanned copy is filed under: school staff file only under their own school
 * (docs/product.md#design-3: a teacher reaches their own institution's uploads); members and admins choose.
 */
export function copyInstitutionOf(auth: AuthContext, requested: string | null | undefined): string | null {
  if (hasRole(auth, 'member')) return requested ?? auth.institutionId;
  return ownInstitutionOf(auth, requested, {
    noSchool: 'Renseignez votre établissement dans votre profil pour déposer des copies.',
    otherSchool: 'Vous ne pouvez déposer des copies que pour votre établissement.',
  });
}

/** Only its uploader (or an admin) files an uploaded PDF as a scanned copy. */
export function assertMayFileScan(auth: AuthContext, file: { ownerId: string | null }): void {
  if (file.ownerId !== auth.userId && !auth.isAdmin) throw forbidden('Ce fichier a été déposé par quelqu’un d’autre.');
}
