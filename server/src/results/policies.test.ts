import { COPIES_NOT_RETURNED_MESSAGE, RESULTS_NOT_PUBLISHED_MESSAGE } from '@olympe/contract';
import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, OTHER_SCHOOL, otherPupil, pupil, SCHOOL, teacher, teacherWithoutSchool } from '../../test/callers.js';
import {
  assertCopiesReturned,
  assertMayGetCertificate,
  assertMayGetReturnedCopy,
  assertMaySeeResults,
  resultsInstitutionOf,
} from './policies.js';

const now = new Date('2026-06-01T12:00:00Z');
const published = { analysis: true, publishAt: null };
const unpublished = { analysis: false, publishAt: null };

describe('results policies', () => {
  it('gives staff their own school’s results, an admin any', () => {
    expect(resultsInstitutionOf(teacher)).toBe(SCHOOL);
    expect(resultsInstitutionOf(admin, OTHER_SCHOOL)).toBe(OTHER_SCHOOL);
    expectRefusal(() => resultsInstitutionOf(admin), 400, 'Indiquez l’établissement.');
    expectRefusal(
      () => resultsInstitutionOf(teacher, OTHER_SCHOOL),
      403,
      'Vous ne pouvez voir que les résultats des élèves de votre établissement.',
    );
    expectRefusal(() => resultsInstitutionOf(teacherWithoutSchool), 403);
  });
  it('shows unpublished results to admins only', () => {
    expect(() => assertMaySeeResults(pupil, published, now)).not.toThrow();
    expect(() => assertMaySeeResults(admin, unpublished, now)).not.toThrow();
    expectRefusal(() => assertMaySeeResults(teacher, unpublished, now), 403, RESULTS_NOT_PUBLISHED_MESSAGE);
  });
  it('gives a pupil their own certificate, an admin anyone’s', () => {
    expect(() => assertMayGetCertificate(pupil, pupil.userId)).not.toThrow();
    expect(() => assertMayGetCertificate(admin, pupil.userId)).not.toThrow();
    expectRefusal(() => assertMayGetCertificate(otherPupil, pupil.userId), 403, 'Vous ne pouvez télécharger que votre propre attestation.');
  });
  it('returns corrected copies once published and switched on, to their pupil; admins any time (decision 162)', () => {
    expect(() => assertCopiesReturned(pupil, { ...published, copiesReturned: true }, now)).not.toThrow();
    expect(() => assertCopiesReturned(admin, { ...unpublished, copiesReturned: false }, now)).not.toThrow();
    expectRefusal(() => assertCopiesReturned(pupil, { ...published, copiesReturned: false }, now), 403, COPIES_NOT_RETURNED_MESSAGE);
    expectRefusal(() => assertCopiesReturned(teacher, { ...unpublished, copiesReturned: true }, now), 403, RESULTS_NOT_PUBLISHED_MESSAGE);
    expect(() => assertMayGetReturnedCopy(admin, pupil.userId)).not.toThrow();
    expectRefusal(() => assertMayGetReturnedCopy(otherPupil, pupil.userId), 403, 'Vous ne pouvez voir que vos propres copies.');
  });
});
