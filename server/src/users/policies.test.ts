import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, otherPupil, pupil, teacher } from '../../test/callers.js';
import { assertMayChangeSchool, assertMayImpersonate, assertMaySeeUser } from './policies.js';

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
});
