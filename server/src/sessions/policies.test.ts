import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, otherPupil, pupil, teacher } from '../../test/callers.js';
import { assertMaySeeReceipt, canFollowPaperChapter, isSessionStaff, profileGroupsOf } from './policies.js';

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
  it('lets school staff follow every paper chapter, and counts them as teachers for the profile rule', () => {
    expect(canFollowPaperChapter(teacher, { offline: true })).toBe(true);
    expect(canFollowPaperChapter(teacher, { offline: false })).toBe(false);
    expect(canFollowPaperChapter(pupil, { offline: true })).toBe(false);
    expect([teacher, pupil, member].map(profileGroupsOf)).toEqual([['teachers'], [], []]);
  });
});
