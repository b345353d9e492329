import { describe, expect, it } from 'vitest';
import {
  admin,
  expectRefusal,
  member,
  OTHER_SCHOOL,
  pupil,
  SCHOOL,
  teacher,
  teacherMember,
  teacherWithoutSchool,
} from '../../test/callers.js';
import { assertMayChooseCenter, assertMaySetPole, canGetCentreConvocations, canSeeEveryCentre, centerInstitutionOf } from './policies.js';

describe('centre policies', () => {
  it('gives staff their own school’s centre, an admin any', () => {
    expect(centerInstitutionOf(teacher)).toBe(SCHOOL);
    expect(centerInstitutionOf(admin, OTHER_SCHOOL)).toBe(OTHER_SCHOOL);
    expectRefusal(() => centerInstitutionOf(admin), 400, 'Indiquez l’établissement du centre.');
    expectRefusal(() => centerInstitutionOf(teacher, OTHER_SCHOOL), 403, 'Vous ne pouvez gérer que le centre de votre établissement.');
    expectRefusal(
      () => centerInstitutionOf(teacherWithoutSchool),
      403,
      'Renseignez votre établissement dans votre profil pour gérer son centre.',
    );
  });
  it('lets pupils, teacher-members and admins choose a centre, not staff or correctors alone', () => {
    for (const caller of [pupil, teacherMember, admin]) expect(() => assertMayChooseCenter(caller)).not.toThrow();
    expectRefusal(
      () => assertMayChooseCenter(teacher),
      403,
      'Le personnel scolaire gère le centre de son établissement et ne choisit pas de centre.',
    );
    expectRefusal(() => assertMayChooseCenter(member), 403, 'Les correcteurs ne choisissent pas de centre.');
  });
  it('leaves pole centres to admins', () => {
    expect(() => assertMaySetPole(admin, { isPole: true })).not.toThrow();
    expect(() => assertMaySetPole(teacher, {})).not.toThrow();
    expectRefusal(() => assertMaySetPole(teacher, { isPole: false }), 403, 'Seul un administrateur peut désigner un centre pôle.');
  });
  it('shows admins every centre, and gives staff and admins the whole centre’s convocations', () => {
    expect([admin, teacher, teacherMember, member, pupil].map(canSeeEveryCentre)).toEqual([true, false, false, false, false]);
    expect([admin, teacher, teacherMember, member, pupil].map(canGetCentreConvocations)).toEqual([true, true, false, false, false]);
  });
});
