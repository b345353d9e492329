import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, OTHER_SCHOOL, otherPupil, pupil, SCHOOL, teacher } from '../../test/callers.js';
import {
  assertMayChangeSchool,
  assertMayImpersonate,
  assertMayReadContent,
  assertMaySeeUser,
  importSchoolOf,
  PROFILE_INCOMPLETE_MESSAGE,
} from './policies.js';

describe('user policies', () => {
  it('shows an account to itself and admins, never to a corrector (decision 128)', () => {
    expect(() => assertMaySeeUser(pupil, pupil.userId)).not.toThrow();
    expect(() => assertMaySeeUser(member, member.userId)).not.toThrow();
    expectRefusal(() => assertMaySeeUser(member, pupil.userId), 403);
    expect(() => assertMaySeeUser(admin, pupil.userId)).not.toThrow();
    expectRefusal(() => assertMaySeeUser(otherPupil, pupil.userId), 403);
    expectRefusal(() => assertMaySeeUser(teacher, pupil.userId), 403);
  });
  it('never impersonates an admin', () => {
    expect(() => assertMayImpersonate({ isAdmin: false })).not.toThrow();
    expectRefusal(() => assertMayImpersonate({ isAdmin: true }), 403, 'Impossible de simuler un administrateur.');
  });
  it('keeps school staff in their school unless an admin moves them', () => {
    expect(() => assertMayChangeSchool(pupil, ['institutionId'])).not.toThrow();
    expect(() => assertMayChangeSchool(teacher, ['grade'])).not.toThrow();
    expect(() => assertMayChangeSchool({ ...teacher, isAdmin: true }, ['institutionId'])).not.toThrow();
    expectRefusal(
      () => assertMayChangeSchool(teacher, ['institutionId']),
      403,
      'Vous êtes enregistré comme personnel de votre établissement : pour en changer, demandez à un administrateur.',
    );
  });
  it('imports into the school an admin names, or into the staff’s own school', () => {
    expect(importSchoolOf(admin, OTHER_SCHOOL)).toBe(OTHER_SCHOOL);
    expectRefusal(() => importSchoolOf(admin, undefined), 400, 'Choisissez l’établissement dans lequel inscrire les élèves.');
    expect(importSchoolOf(teacher, undefined)).toBe(SCHOOL);
    expectRefusal(() => importSchoolOf(teacher, OTHER_SCHOOL), 403, 'Vous ne pouvez inscrire des élèves que dans votre établissement.');
  });

  it('opens chapter content to a complete profile only; staff need no pupil fields (docs/product.md#spec-5)', () => {
    const named = { firstName: 'Ada', lastName: 'Lovelace', institution: { name: 'Lycée' }, gender: 'F', isAdmin: false } as const;
    const staffOnly = { ...named, birthDate: null, grade: null, defaultChoice: null, emailParent: null };
    const full = { ...named, birthDate: '2010-01-01', grade: '3e', defaultChoice: 'x', emailParent: 'p@exemple.fr' };
    type Profile = Parameters<typeof assertMayReadContent>[1];
    expect(() => assertMayReadContent(pupil, full as unknown as Profile)).not.toThrow();
    expectRefusal(() => assertMayReadContent(pupil, staffOnly as unknown as Profile), 403, PROFILE_INCOMPLETE_MESSAGE);
    expect(() => assertMayReadContent(teacher, staffOnly as unknown as Profile)).not.toThrow();
    expect(() => assertMayReadContent(member, staffOnly as unknown as Profile)).not.toThrow();
    expectRefusal(() => assertMayReadContent(admin, { ...staffOnly, firstName: '' } as unknown as Profile), 403);
  });
});
