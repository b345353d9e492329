import type { ChapterSummary, GroupMember, User } from '@olympe/contract';

/** A user whose profile is complete as a pupil; override fields per test. */
export function makeUser(overrides: Partial<User> = {}): User {
  return {
    _id: 'u1',
    email: 'eleve@example.fr',
    emailStudent: null,
    emailParent: 'parent@example.fr',
    emailOtherParent: null,
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthDate: '2010-05-01',
    gender: 'female',
    grade: '3eme',
    defaultChoice: 'local',
    emailNotifications: true,
    institution: { _id: 'i1', name: 'Collège Pascal' },
    isAdmin: false,
    isMember: false,
    isTeacher: false,
    ...overrides,
  };
}

/** A group member (a user without the role flags): makeUser's fields, this id and these overrides. */
export function makeMember(id: string, fields: Partial<GroupMember> = {}): GroupMember {
  const { isMember: _m, isTeacher: _t, ...user } = makeUser({ _id: id, ...fields });
  return user;
}

export const CHAPTERS: ChapterSummary[] = [
  { _id: 'c-online', title: 'Test en ligne 1', analysis: false, offline: false },
  { _id: 'c-paper', title: 'Épreuve papier 1', analysis: false, offline: true },
];
