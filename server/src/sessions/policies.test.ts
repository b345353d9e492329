import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, otherPupil, pupil, teacher } from '../../test/callers.js';
import { assertMaySeeReceipt, isSessionStaff } from './policies.js';

describe('session policies', () => {
  it('counts admins and members as staff, not school staff or pupils', () => {
    expect([admin, member, teacher, pupil].map(isSessionStaff)).toEqual([true, true, false, false]);
  });
  it('shows a receipt to its pupil, another pupil’s to staff only', () => {
    expect(() => assertMaySeeReceipt(pupil, undefined)).not.toThrow();
    expect(() => assertMaySeeReceipt(pupil, pupil.userId)).not.toThrow();
    expect(() => assertMaySeeReceipt(member, pupil.userId)).not.toThrow();
    expectRefusal(() => assertMaySeeReceipt(otherPupil, pupil.userId), 403);
    expectRefusal(() => assertMaySeeReceipt(teacher, pupil.userId), 403);
  });
});
