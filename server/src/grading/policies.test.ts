import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, otherPupil, pupil, teacherMember } from '../../test/callers.js';
import { assertMaySeeCopy, canTakeCopies } from './policies.js';

describe('grading policies', () => {
  it('hands an assigned exercise’s copies to its correctors and admins only', () => {
    expect(canTakeCopies(member, undefined)).toBe(true);
    expect(canTakeCopies(member, [member.userId])).toBe(true);
    expect(canTakeCopies(admin, [member.userId])).toBe(true);
    expect(canTakeCopies(teacherMember, [member.userId])).toBe(false);
  });
  it('shows a pupil’s history to them, members and admins', () => {
    for (const caller of [pupil, member, admin]) expect(() => assertMaySeeCopy(caller, pupil.userId)).not.toThrow();
    expectRefusal(() => assertMaySeeCopy(otherPupil, pupil.userId), 403);
  });
});
