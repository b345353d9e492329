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
