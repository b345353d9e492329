import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, otherPupil, pupil, teacher, teacherMember } from '../../test/callers.js';
import {
  assertMaySeeCopy,
  canArbitrate,
  canGrade,
  canSeeCorrectorLine,
  canSeeEveryGrading,
  canSeeNames,
  canTakeCopies,
} from './policies.js';

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
  it('lets members and admins grade, not pupils or teachers', () => {
    for (const caller of [member, teacherMember, admin]) expect(canGrade(caller)).toBe(true);
    for (const caller of [pupil, teacher]) expect(canGrade(caller)).toBe(false);
  });
  it('hides names from a corrector who is not an admin in an anonymous chapter only', () => {
    expect(canSeeNames(member, { anonymous_grading: true })).toBe(false);
    expect(canSeeNames(teacherMember, { anonymous_grading: true })).toBe(false);
    expect(canSeeNames(admin, { anonymous_grading: true })).toBe(true);
    expect(canSeeNames(pupil, { anonymous_grading: true })).toBe(true);
    expect(canSeeNames(member, { anonymous_grading: false })).toBe(true);
  });
  it('shows a corrector their own line of the table, an admin every line', () => {
    expect(canSeeCorrectorLine(member, member.userId)).toBe(true);
    expect(canSeeCorrectorLine(member, teacherMember.userId)).toBe(false);
    expect(canSeeCorrectorLine(admin, member.userId)).toBe(true);
  });
  it('lets admins alone see every grading and arbitrate', () => {
    expect(canSeeEveryGrading(admin)).toBe(true);
    expect(canSeeEveryGrading(member)).toBe(false);
    expect(canArbitrate(admin)).toBe(true);
    expect(canArbitrate(teacherMember)).toBe(false);
  });
});
