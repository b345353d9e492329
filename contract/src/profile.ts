import type { User } from './user.js';

/**
 * A user's profile values and the rule that says when it is complete: plain data and functions, no
 * schema, so the web app's first load imports them (`@olympe/contract/profile`) without zod (decision 56).
 */
export const GRADES = ['5eme', '4eme', '3eme', '2nde', '1ere', 'Tale', 'other'] as const;
export const GRADE_LABELS: Record<Grade, string> = {
  '5eme': '5ème',
  '4eme': '4ème',
  '3eme': '3ème',
  '2nde': '2nde',
  '1ere': '1ère',
  Tale: 'Terminale',
  other: 'Autre',
};
export const GENDERS = ['male', 'female', 'other'] as const;
/** French words for a gender, in profiles and exports (decision 71: no raw codes in a spreadsheet). */
export const GENDER_LABELS: Record<Gender, string> = { male: 'Masculin', female: 'Féminin', other: 'Autre' };
export const DEFAULT_CHOICES = ['local', 'global'] as const;

export type Grade = (typeof GRADES)[number];
export type Gender = (typeof GENDERS)[number];
export type DefaultChoice = (typeof DEFAULT_CHOICES)[number];

/**
 * docs/product.md#spec-5: complete when firstName, lastName, institution name and gender are present AND the user
 * is an admin, or in the group teachers or members, or has birthDate, grade, defaultChoice and emailParent.
 */
export function isProfileComplete(
  user: Pick<
    User,
    'firstName' | 'lastName' | 'institution' | 'gender' | 'isAdmin' | 'birthDate' | 'grade' | 'defaultChoice' | 'emailParent'
  >,
  groupNames: readonly string[],
): boolean {
  const base = !!user.firstName && !!user.lastName && !!user.institution?.name && !!user.gender;
  if (!base) return false;
  if (user.isAdmin) return true;
  if (groupNames.includes('teachers') || groupNames.includes('members')) return true;
  return !!user.birthDate && !!user.grade && !!user.defaultChoice && !!user.emailParent;
}

/** True for school staff, correctors and admins: they have no pupil-only fields (class, birth date, parents…). */
export function isStaffProfile(user: Pick<User, 'isAdmin'>, groupNames: readonly string[]): boolean {
  return user.isAdmin || groupNames.includes('teachers') || groupNames.includes('members');
}

/**
 * What is still missing for the profile to be complete (the rule of isProfileComplete), as the
 * labels of the profile form, in the form's order. Empty when the profile is complete.
 */
export function missingProfileFields(
  user: Pick<
    User,
    'firstName' | 'lastName' | 'institution' | 'gender' | 'isAdmin' | 'birthDate' | 'grade' | 'defaultChoice' | 'emailParent'
  >,
  groupNames: readonly string[],
): string[] {
  const missing: string[] = [];
  if (!user.firstName) missing.push('Prénom');
  if (!user.lastName) missing.push('Nom');
  if (!user.gender) missing.push('Genre');
  const pupil = !isStaffProfile(user, groupNames);
  if (pupil && !user.birthDate) missing.push('Date de naissance');
  if (pupil && !user.grade) missing.push('Classe');
  if (pupil && !user.emailParent) missing.push('E-mail d’un parent');
  if (pupil && !user.defaultChoice) missing.push('Choix par défaut du centre d’examen');
  if (!user.institution?.name) missing.push('Établissement');
  return missing;
}
