import { expect } from 'vitest';
import type { AuthContext } from '../src/auth/context.js';
import { AppError } from '../src/errors.js';

/** The callers the unit tests of the per-record rules (`<area>/policies.test.ts`) try each rule with. */
export const SCHOOL = '00000000-0000-4000-8000-00000000000a';
export const OTHER_SCHOOL = '00000000-0000-4000-8000-00000000000b';

const base = (userId: string): AuthContext => ({ userId, isAdmin: false, isMember: false, isTeacher: false, institutionId: null });
export const pupil: AuthContext = { ...base('pupil'), institutionId: SCHOOL };
export const otherPupil: AuthContext = { ...base('other-pupil'), institutionId: SCHOOL };
export const teacher: AuthContext = { ...base('teacher'), isTeacher: true, institutionId: SCHOOL };
export const teacherWithoutSchool: AuthContext = { ...base('teacher-no-school'), isTeacher: true };
export const member: AuthContext = { ...base('member'), isMember: true };
export const teacherMember: AuthContext = { ...base('teacher-member'), isTeacher: true, isMember: true, institutionId: SCHOOL };
export const admin: AuthContext = { ...base('admin'), isAdmin: true };

/** Runs a rule and expects it to refuse with this status and French message. */
export function expectRefusal(rule: () => unknown, status: number, message?: string): void {
  let thrown: unknown;
  try {
    rule();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  expect((thrown as AppError).statusCode).toBe(status);
  if (message !== undefined) expect((thrown as AppError).message).toBe(message);
}
