import type { CorrectorProgress, Person } from '@olympe/contract';

/** « Prénom Nom », or the pseudonym under anonymous correction. */
export function nameOf(person: Pick<Person, 'firstName' | 'lastName' | 'pseudonym'>): string {
  return person.pseudonym ?? `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim();
}

export interface CorrectorSpread extends CorrectorProgress {
  /** The corrector's mean minus the mean of all correctors' means (null without a numeric grade). */
  gap: number | null;
}

/**
 * Decision 63: each corrector's mean grade against the others', most copies first. The reference is
 * the mean of the correctors' means (each corrector weighs the same, however many copies they did).
 */
export function correctorSpread(correctors: readonly CorrectorProgress[]): CorrectorSpread[] {
  const means = correctors.map((c) => c.meanGrade).filter((m): m is number => m !== null);
  const reference = means.length > 0 ? means.reduce((a, b) => a + b, 0) / means.length : null;
  return [...correctors]
    .sort((a, b) => b.copies - a.copies)
    .map((c) => ({
      ...c,
      gap: c.meanGrade === null || reference === null ? null : Math.round((c.meanGrade - reference) * 100) / 100,
    }));
}
