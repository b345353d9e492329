import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, OTHER_SCHOOL, pupil, SCHOOL, teacher, teacherWithoutSchool } from '../../test/callers.js';
import { assertMayFileScan, assertMayLabel, canSeeEverySchoolsScans, copyInstitutionOf } from './policies.js';

const held = (by: string | null, active = true) => ({ labeled: false, reserved_by: by, reservation_active: active });

describe('sorting policies', () => {
  it('lets the holder of a copy, or an admin, label it', () => {
    expect(() => assertMayLabel(member, held(member.userId))).not.toThrow();
    expect(() => assertMayLabel(admin, held(member.userId))).not.toThrow();
    expectRefusal(() => assertMayLabel(member, undefined), 404, 'Copie à trier introuvable.');
    expectRefusal(() => assertMayLabel(admin, { ...held(null), labeled: true }), 409, 'Cette copie a déjà été triée.');
    expectRefusal(() => assertMayLabel(teacher, held(member.userId)), 409, 'Cette copie est en cours de tri par une autre personne.');
    expectRefusal(
      () => assertMayLabel(teacher, held(member.userId, false)),
      403,
      'Cette copie ne vous est pas réservée : ouvrez-la depuis la page Triage.',
    );
    expectRefusal(() => assertMayLabel(teacher, held(null)), 403);
  });
  it('files staff’s copies under their own school; members choose', () => {
    expect(copyInstitutionOf(member, OTHER_SCHOOL)).toBe(OTHER_SCHOOL);
    expect(copyInstitutionOf(member, undefined)).toBeNull();
    expect(copyInstitutionOf(teacher, null)).toBe(SCHOOL);
    expectRefusal(() => copyInstitutionOf(teacher, OTHER_SCHOOL), 403, 'Vous ne pouvez déposer des copies que pour votre établissement.');
    expectRefusal(
      () => copyInstitutionOf(teacherWithoutSchool, undefined),
      403,
      'Renseignez votre établissement dans votre profil pour déposer des copies.',
    );
  });
  it('files an uploaded PDF for its uploader or an admin only', () => {
    expect(() => assertMayFileScan(teacher, { ownerId: teacher.userId })).not.toThrow();
    expect(() => assertMayFileScan(admin, { ownerId: teacher.userId })).not.toThrow();
    expectRefusal(() => assertMayFileScan(pupil, { ownerId: teacher.userId }), 403, 'Ce fichier a été déposé par quelqu’un d’autre.');
  });

  it('shows every school’s scans to members and admins, not to school staff', () => {
    expect(canSeeEverySchoolsScans(member)).toBe(true);
    expect(canSeeEverySchoolsScans(admin)).toBe(true);
    expect(canSeeEverySchoolsScans(teacher)).toBe(false);
    expect(canSeeEverySchoolsScans(pupil)).toBe(false);
  });
});
