import { describe, expect, it } from 'vitest';
import { hasForbiddenNameCharacter, NAME_FORBIDDEN_CHARACTER_MESSAGE } from './names.js';
import { isProfileComplete, profileUpdateSchema, type User } from './user.js';

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

describe('names on the profile (decision 134)', () => {
  const parse = (firstName: string) => profileUpdateSchema.safeParse({ firstName });

  it.each(['Łukasz', 'Nguyễn', 'Ștefan', 'Øyvind', 'Zoé-Anaïs', 'D’Artagnan', "O'Brien", 'Jean Pierre', 'محمد', '李小龍'])(
    'keeps %s',
    (name) => {
      const result = parse(name);
      expect(result.success).toBe(true);
      expect(result.data?.firstName).toBe(name);
    },
  );

  it.each([
    ['RIGHT-TO-LEFT OVERRIDE', 'Alice\u202Egnp.exe'],
    ['LEFT-TO-RIGHT EMBEDDING', '\u202AAlice'],
    ['POP DIRECTIONAL FORMATTING', 'Alice\u202C'],
    ['RIGHT-TO-LEFT ISOLATE', 'Al\u2067ice'],
    ['POP DIRECTIONAL ISOLATE', 'Alice\u2069'],
    ['LEFT-TO-RIGHT MARK', 'Ali\u200Ece'],
    ['RIGHT-TO-LEFT MARK', 'Ali\u200Fce'],
    ['ZERO WIDTH SPACE', 'Ali\u200Bce'],
    ['ZERO WIDTH JOINER', 'Ali\u200Dce'],
    ['WORD JOINER', 'Ali\u2060ce'],
    ['BYTE ORDER MARK', 'Ali\uFEFFce'],
    ['a NUL', 'Ali\u0000ce'],
    ['a line feed', 'Alice\nGagnez 500 EUR'],
    ['an escape', 'Alice\u001B[31m'],
  ])('refuses a name with %s, in French', (_what, name) => {
    const result = parse(name);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(NAME_FORBIDDEN_CHARACTER_MESSAGE);
    expect(profileUpdateSchema.safeParse({ lastName: name }).success).toBe(false);
  });

  it('says it in French typography', () => {
    expect(NAME_FORBIDDEN_CHARACTER_MESSAGE).toBe('Ce nom contient un caractère invisible ou de contrôle\u00a0: retirez-le.');
    expect(hasForbiddenNameCharacter('Nguyễn')).toBe(false);
  });
});
