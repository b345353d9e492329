import { describe, expect, it } from 'vitest';
import { admin, expectRefusal, member, OTHER_SCHOOL, pupil, SCHOOL, teacher, teacherWithoutSchool } from '../../test/callers.js';
import {
  assertMayEditInstitution,
  assertMaySetAdminFields,
  canChooseInstitution,
  canManageInstitutions,
  institutionInScope,
  ownInstitutionOf,
} from './policies.js';

const refusals = { unnamed: 'nommez', noSchool: 'sans école', otherSchool: 'autre école' };

describe('institution policies', () => {
  it('gives staff their own school and refuses another or none', () => {
    expect(ownInstitutionOf(teacher, undefined, refusals)).toBe(SCHOOL);
    expect(ownInstitutionOf(teacher, SCHOOL, refusals)).toBe(SCHOOL);
    expectRefusal(() => ownInstitutionOf(teacher, OTHER_SCHOOL, refusals), 403, 'autre école');
    expectRefusal(() => ownInstitutionOf(teacherWithoutSchool, undefined, refusals), 403, 'sans école');
  });
  it('lets an admin name any school, or fall back to their own, and asks when there is none', () => {
    expect(institutionInScope(admin, OTHER_SCHOOL, refusals)).toBe(OTHER_SCHOOL);
    expect(institutionInScope({ ...admin, institutionId: SCHOOL }, undefined, refusals)).toBe(SCHOOL);
    expectRefusal(() => institutionInScope(admin, undefined, refusals), 400, 'nommez');
    expectRefusal(() => institutionInScope(teacher, OTHER_SCHOOL, refusals), 403, 'autre école');
  });
  it('leaves the directory (pending schools, no pending limit) to admins', () => {
    expect(canManageInstitutions(admin)).toBe(true);
    for (const caller of [pupil, teacher, member]) expect(canManageInstitutions(caller)).toBe(false);
  });
  it('leaves confirmation and UAI to admins', () => {
    expect(() => assertMaySetAdminFields(admin, { confirmed: true, uai: '0750001A' })).not.toThrow();
    expect(() => assertMaySetAdminFields(pupil, { name: 'x' } as object)).not.toThrow();
    expectRefusal(
      () => assertMaySetAdminFields(pupil, { confirmed: false }),
      403,
      'Seul un administrateur peut vérifier un établissement.',
    );
    expectRefusal(
      () => assertMaySetAdminFields(pupil, { uai: '0750001A' }),
      403,
      'Seul un administrateur peut donner le code UAI d’un établissement.',
    );
  });
  it('lets the author edit an unconfirmed school, an admin any', () => {
    expect(() => assertMayEditInstitution(pupil, { confirmed: false, createdBy: pupil.userId })).not.toThrow();
    expect(() => assertMayEditInstitution(admin, { confirmed: true, createdBy: pupil.userId })).not.toThrow();
    expectRefusal(
      () => assertMayEditInstitution(pupil, { confirmed: true, createdBy: pupil.userId }),
      403,
      'Vous ne pouvez pas modifier cet établissement.',
    );
    expectRefusal(() => assertMayEditInstitution(teacher, { confirmed: false, createdBy: pupil.userId }), 403);
  });
  it('keeps an unconfirmed school private to its author (and admins)', () => {
    expect(canChooseInstitution(teacher, { confirmed: true, createdBy: pupil.userId })).toBe(true);
    expect(canChooseInstitution(pupil, { confirmed: false, createdBy: pupil.userId })).toBe(true);
    expect(canChooseInstitution(admin, { confirmed: false, createdBy: pupil.userId })).toBe(true);
    expect(canChooseInstitution(teacher, { confirmed: false, createdBy: pupil.userId })).toBe(false);
  });
});
