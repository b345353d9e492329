import {
  DEFAULT_CHOICES,
  GENDER_LABELS,
  GENDERS,
  GRADE_LABELS,
  GRADES,
  type DefaultChoice,
  type Gender,
  type Grade,
  type User,
} from '@olympe/contract';
import type { ProfileUpdate } from '../../api/auth';
import type { Roles } from '../../session/roles';

export interface ProfileValues {
  firstName: string;
  lastName: string;
  emailStudent: string;
  emailParent: string;
  emailOtherParent: string;
  birthDate: string;
  gender: Gender | '';
  grade: Grade | '';
  defaultChoice: DefaultChoice | '';
  emailNotifications: boolean;
  institution: { _id: string; name: string } | null;
}

export const DEFAULT_CHOICE_LABELS: Record<DefaultChoice, string> = {
  local: 'Passer l’épreuve dans mon établissement',
  global: 'Passer l’épreuve dans un centre ouvert à tous',
};

export const genderOptions = GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] }));
/** docs/product.md#spec-3: grades shown as 5ème … Terminale, Autre. */
export const gradeOptions = GRADES.map((g) => ({ value: g, label: GRADE_LABELS[g] }));
export const defaultChoiceOptions = DEFAULT_CHOICES.map((c) => ({ value: c, label: DEFAULT_CHOICE_LABELS[c] }));

export function valuesOf(user: User): ProfileValues {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    emailStudent: user.emailStudent ?? '',
    emailParent: user.emailParent ?? '',
    emailOtherParent: user.emailOtherParent ?? '',
    // Date only (docs/product.md#spec-5): the input and the API both use YYYY-MM-DD.
    birthDate: user.birthDate?.slice(0, 10) ?? '',
    gender: user.gender ?? '',
    grade: user.grade ?? '',
    defaultChoice: user.defaultChoice ?? '',
    emailNotifications: user.emailNotifications,
    institution: user.institution ? { _id: user.institution._id, name: user.institution.name } : null,
  };
}

/** The PUT /auth/me payload: every field, empty ones as null (the server validates). */
export function updateOf(v: ProfileValues): ProfileUpdate {
  const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
  return {
    firstName: orNull(v.firstName),
    lastName: orNull(v.lastName),
    emailStudent: orNull(v.emailStudent),
    emailParent: orNull(v.emailParent),
    emailOtherParent: orNull(v.emailOtherParent),
    birthDate: orNull(v.birthDate),
    gender: v.gender || null,
    grade: v.grade || null,
    defaultChoice: v.defaultChoice || null,
    emailNotifications: v.emailNotifications,
    institution: v.institution?._id ?? null,
  };
}

/**
 * docs/product.md#spec-2 Profile: first name, last name and school are marked required for everyone; gender,
 * birth date, class, one parent e-mail and default choice too for users neither teacher nor member.
 */
export function requiredFields(roles: Pick<Roles, 'isTeacher' | 'isMember'>) {
  const pupilFields = !roles.isTeacher && !roles.isMember;
  return {
    firstName: true,
    lastName: true,
    institution: true,
    gender: pupilFields,
    birthDate: pupilFields,
    grade: pupilFields,
    emailParent: pupilFields,
    defaultChoice: pupilFields,
  };
}
