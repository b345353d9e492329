import type { GroupMember, ImportLine, ImportReport, User } from '@olympe/contract';
import type { institutions, users } from '../db/schema.js';

type UserRow = typeof users.$inferSelect;
type InstitutionRow = Pick<typeof institutions.$inferSelect, 'id' | 'name' | 'email'>;

type MemberRow = Pick<
  UserRow,
  | 'id'
  | 'email'
  | 'emailStudent'
  | 'emailParent'
  | 'emailOtherParent'
  | 'firstName'
  | 'lastName'
  | 'birthDate'
  | 'gender'
  | 'grade'
  | 'defaultChoice'
  | 'emailNotifications'
  | 'isAdmin'
  | 'extraTimePercent'
>;

/** A row of a group's member list (GET /group/{id}): the user fields, the institution, isAdmin for "Simuler". */
export function presentGroupMember(row: MemberRow, institution: InstitutionRow | null): GroupMember {
  return {
    _id: row.id,
    email: row.email,
    emailStudent: row.emailStudent,
    emailParent: row.emailParent,
    emailOtherParent: row.emailOtherParent,
    firstName: row.firstName,
    lastName: row.lastName,
    birthDate: row.birthDate,
    gender: row.gender as GroupMember['gender'],
    grade: row.grade as GroupMember['grade'],
    defaultChoice: row.defaultChoice as GroupMember['defaultChoice'],
    emailNotifications: row.emailNotifications,
    institution: institution ? { _id: institution.id, name: institution.name, email: institution.email } : null,
    isAdmin: row.isAdmin,
    extraTimePercent: row.extraTimePercent,
  };
}

/** The user as the API shows it: an allow-list of fields, never the password hash or token version. */
export function presentUser(row: UserRow, institution: InstitutionRow | null, roles: { isMember: boolean; isTeacher: boolean }): User {
  return { ...presentGroupMember(row, institution), isMember: roles.isMember, isTeacher: roles.isTeacher };
}

/** POST /users/import: the counts, the refused lines with their reasons, and every line's outcome. */
export function presentImportReport(lines: ImportLine[], school: { id: string; name: string }, preview: boolean): ImportReport {
  const counts = { created: 0, existing: 0, rejected: 0 };
  for (const l of lines) counts[l.outcome]++;
  return {
    created: counts.created,
    existing: counts.existing,
    rejected: lines.filter((l) => l.outcome === 'rejected').map((l) => ({ line: l.line, message: l.message ?? '' })),
    preview,
    institution: { _id: school.id, name: school.name },
    lines,
  };
}
