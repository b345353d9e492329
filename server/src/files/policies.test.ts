import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, OTHER_SCHOOL, otherPupil, pupil, SCHOOL, teacher } from '../../test/callers.js';
import { assertMaySeeFile, assertMayUploadForChapter, canResumeUpload, canUseStaffUploadLimits } from './policies.js';

const file = (over: Partial<Parameters<typeof assertMaySeeFile>[1]> = {}) => ({
  owner_id: pupil.userId,
  institution_id: null,
  owner_institution: OTHER_SCHOOL,
  own_answer: false,
  sorted_anonymous_scan: false,
  ...over,
});

describe('file policies', () => {
  it('shows a PDF to its owner, staff of its schools, members, admins and a pupil whose answer uses it', () => {
    for (const caller of [pupil, member, admin]) expect(() => assertMaySeeFile(caller, file())).not.toThrow();
    expect(() => assertMaySeeFile(otherPupil, file({ own_answer: true }))).not.toThrow();
    expect(() => assertMaySeeFile(teacher, file({ institution_id: SCHOOL }))).not.toThrow();
    expect(() => assertMaySeeFile(teacher, file({ owner_institution: SCHOOL }))).not.toThrow();
    expectRefusal(() => assertMaySeeFile(otherPupil, file()), 403);
    expectRefusal(() => assertMaySeeFile(teacher, file()), 403);
    expectRefusal(() => assertMaySeeFile({ ...otherPupil, institutionId: OTHER_SCHOOL }, file()), 403);
  });
  it('keeps a sorted scan of an anonymous chapter from members who did not upload it (decision 130)', () => {
    const scan = file({ owner_id: teacher.userId, institution_id: SCHOOL, sorted_anonymous_scan: true });
    expectRefusal(() => assertMaySeeFile(member, scan), 403);
    for (const caller of [admin, teacher]) expect(() => assertMaySeeFile(caller, scan)).not.toThrow();
    expect(() => assertMaySeeFile(member, { ...scan, owner_id: member.userId })).not.toThrow();
  });
  it('resumes an upload for its creator only', () => {
    expect(canResumeUpload(pupil, { owner: pupil.userId })).toBe(true);
    expect(canResumeUpload(admin, { owner: pupil.userId })).toBe(false);
  });

  it('takes a chapter’s scan from school staff, members and admins only', () => {
    for (const caller of [teacher, member, admin]) expect(() => assertMayUploadForChapter(caller)).not.toThrow();
    expectRefusal(() => assertMayUploadForChapter(pupil), 403);
  });

  it('gives the staff upload limits to school staff, members and admins (decision 133)', () => {
    for (const caller of [teacher, member, admin]) expect(canUseStaffUploadLimits(caller)).toBe(true);
    expect(canUseStaffUploadLimits(pupil)).toBe(false);
  });
});
