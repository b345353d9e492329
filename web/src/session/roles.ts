import type { GroupSummary, User } from '@olympe/contract';
import { isProfileComplete } from '@olympe/contract/profile';

export interface Roles {
  isAdmin: boolean;
  isMember: boolean;
  isTeacher: boolean;
  profileComplete: boolean;
}

export const NO_ROLES: Roles = { isAdmin: false, isMember: false, isTeacher: false, profileComplete: false };

/**
 * docs/product.md#spec-6: admin by flag; member and teacher by flag or by membership of the groups named
 * 'members' and 'teachers' (the server may send either, so both are honoured).
 */
export function computeRoles(user: User | null, groups: readonly GroupSummary[]): Roles {
  if (!user) return NO_ROLES;
  const names = groups.map((g) => g.name);
  return {
    isAdmin: user.isAdmin,
    isMember: user.isMember || names.includes('members'),
    isTeacher: user.isTeacher || names.includes('teachers'),
    profileComplete: isProfileComplete(user, names),
  };
}

/** docs/product.md#spec-2: "Tests papiers" is shown to admins, to non-teachers, and to teachers with a school. */
export function canSeePaperTests(user: User | null, roles: Roles): boolean {
  return roles.isAdmin || !roles.isTeacher || !!user?.institution?.name;
}
