import type { CenterStatus } from '@olympe/contract';

/** What the status of a centre depends on: its row (null when the school never answered). */
export interface CenterFacts {
  opened: boolean | null;
  nbPlaces: number;
  isPole: boolean;
}

/**
 * docs/product.md#design-3 Centres: `center` for a pole centre (marked by an admin, open to all), `no` when the
 * school said it will not organise the test, `unknown` before it answered, `full` when opened and
 * the registrations of pupils from other schools reached nb_places, else `yes`.
 */
export function computeCenterStatus(center: CenterFacts | null, outsideRegistrations: number): CenterStatus {
  if (!center) return 'unknown';
  if (center.isPole) return 'center';
  if (center.opened === false) return 'no';
  if (center.opened === null) return 'unknown';
  return outsideRegistrations >= center.nbPlaces ? 'full' : 'yes';
}

/** The centre flag of the registrations overview (VALIDÉ / EN ATTENTE). */
export const isCenterValidated = (center: CenterFacts | null) => !!center && (center.isPole || center.opened === true);

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

export type RegistrationVerdict = { ok: true; checkPlaces: boolean } | { ok: false; message: string };

/**
 * Whether a pupil may register at a centre (docs/product.md#design-3): never at a school that said no; their own
 * school always fits; a pole centre is open to all; another school only once it opened, and only
 * while places for outside pupils remain (checked under a row lock by the caller).
 */
export function registrationVerdict(status: CenterStatus, ownSchool: boolean): RegistrationVerdict {
  if (status === 'no') return { ok: false, message: 'Cet établissement n’organise pas l’épreuve.' };
  if (ownSchool || status === 'center') return { ok: true, checkPlaces: false };
  if (status === 'unknown') {
    return { ok: false, message: 'Cet établissement n’a pas encore indiqué s’il organise l’épreuve.' };
  }
  return { ok: true, checkPlaces: true };
}
