import { describe, expect, it } from 'vitest';
import { isProfileComplete, type User } from './user.js';

type Profile = Parameters<typeof isProfileComplete>[0];

/** A pupil with every field docs/product.md#spec-5 asks for. */
const fullPupil: Profile = {
  firstName: 'Alice',
  lastName: 'Martin',
  institution: { _id: 'i1', name: 'Collège Émile Zola' },
  gender: 'female',
  isAdmin: false,
  birthDate: '2011-04-02',
  grade: '4eme',
  defaultChoice: 'local',
  emailParent: 'parent@exemple.fr',
};
/** Only the fields every role needs. */
const baseOnly: Profile = {
  ...fullPupil,
  birthDate: null,
  grade: null,
  defaultChoice: null,
  emailParent: null,
};

describe('isProfileComplete (docs/product.md#spec-5)', () => {
  it('is complete for a pupil with every field', () => {
    expect(isProfileComplete(fullPupil, [])).toBe(true);
  });

  it.each(['firstName', 'lastName', 'gender'] as const)('needs %s for everyone, admins included', (field) => {
    expect(isProfileComplete({ ...fullPupil, [field]: null }, [])).toBe(false);
    expect(isProfileComplete({ ...fullPupil, [field]: '' } as Profile, [])).toBe(false);
    expect(isProfileComplete({ ...fullPupil, isAdmin: true, [field]: null }, [])).toBe(false);
    expect(isProfileComplete({ ...fullPupil, [field]: null }, ['teachers', 'members'])).toBe(false);
  });

  it('needs an institution with a name', () => {
    expect(isProfileComplete({ ...fullPupil, institution: null }, [])).toBe(false);
    expect(isProfileComplete({ ...fullPupil, institution: { _id: 'i1', name: '' } }, [])).toBe(false);
    expect(isProfileComplete({ ...fullPupil, isAdmin: true, institution: null }, [])).toBe(false);
  });

  it('exempts admins from the pupil-only fields', () => {
    expect(isProfileComplete({ ...baseOnly, isAdmin: true }, [])).toBe(true);
  });

  it('exempts members of the groups teachers or members', () => {
    expect(isProfileComplete(baseOnly, ['teachers'])).toBe(true);
    expect(isProfileComplete(baseOnly, ['members'])).toBe(true);
    expect(isProfileComplete(baseOnly, ['Stage d’été'])).toBe(false);
  });

  it.each(['birthDate', 'grade', 'defaultChoice', 'emailParent'] as const)(
    'needs %s from a pupil (anyone neither admin nor staff)',
    (field) => {
      expect(isProfileComplete({ ...fullPupil, [field]: null }, [])).toBe(false);
      expect(isProfileComplete({ ...fullPupil, [field]: null }, ['teachers'])).toBe(true);
    },
  );

  it('accepts a whole User object', () => {
    const user: User = {
      _id: 'u1',
      email: 'a@exemple.fr',
      emailStudent: null,
      emailOtherParent: null,
      emailNotifications: false,
      isMember: false,
      isTeacher: false,
      ...fullPupil,
    } as User;
    expect(isProfileComplete(user, [])).toBe(true);
  });
});
