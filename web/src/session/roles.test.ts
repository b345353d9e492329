import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures';
import { canSeePaperTests, computeRoles } from './roles';

describe('computeRoles', () => {
  it('gives no role to a logged-out visitor', () => {
    expect(computeRoles(null, [])).toEqual({ isAdmin: false, isMember: false, isTeacher: false, profileComplete: false });
  });

  it('reads member and teacher from the flags or from the groups', () => {
    expect(computeRoles(makeUser({ isMember: true }), []).isMember).toBe(true);
    expect(computeRoles(makeUser(), [{ _id: 'g', name: 'members' }]).isMember).toBe(true);
    expect(computeRoles(makeUser({ isTeacher: true }), []).isTeacher).toBe(true);
    expect(computeRoles(makeUser(), [{ _id: 'g', name: 'teachers' }]).isTeacher).toBe(true);
    expect(computeRoles(makeUser(), [{ _id: 'g', name: 'other' }])).toMatchObject({ isMember: false, isTeacher: false });
  });

  it('treats a teacher without pupil fields as complete', () => {
    const teacher = makeUser({ birthDate: null, grade: null, defaultChoice: null, emailParent: null });
    expect(computeRoles(teacher, []).profileComplete).toBe(false);
    expect(computeRoles(teacher, [{ _id: 'g', name: 'teachers' }]).profileComplete).toBe(true);
  });
});

describe('canSeePaperTests', () => {
  const noSchool = makeUser({ institution: null });
  it('is true for pupils, admins and teachers with a school', () => {
    expect(canSeePaperTests(noSchool, computeRoles(noSchool, []))).toBe(true);
    const adminTeacher = makeUser({ institution: null, isAdmin: true, isTeacher: true });
    expect(canSeePaperTests(adminTeacher, computeRoles(adminTeacher, []))).toBe(true);
    const teacher = makeUser({ isTeacher: true });
    expect(canSeePaperTests(teacher, computeRoles(teacher, []))).toBe(true);
  });

  it('is false for a teacher without a school', () => {
    const teacher = makeUser({ isTeacher: true, institution: null });
    expect(canSeePaperTests(teacher, computeRoles(teacher, []))).toBe(false);
  });
});
