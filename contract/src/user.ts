import { z } from 'zod';

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
export const DEFAULT_CHOICES = ['local', 'global'] as const;

export type Grade = (typeof GRADES)[number];
export type Gender = (typeof GENDERS)[number];
export type DefaultChoice = (typeof DEFAULT_CHOICES)[number];

export const institutionRef = z.object({ _id: z.string(), name: z.string(), email: z.string().nullable().optional() });

/** The user as the API presents it (PUT /auth/me, GET /user/{uid}). */
export const userSchema = z.object({
  _id: z.string(),
  email: z.string(),
  emailStudent: z.string().nullable(),
  emailParent: z.string().nullable(),
  emailOtherParent: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  birthDate: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  grade: z.enum(GRADES).nullable(),
  defaultChoice: z.enum(DEFAULT_CHOICES).nullable(),
  emailNotifications: z.boolean(),
  institution: institutionRef.nullable(),
  isAdmin: z.boolean(),
  isMember: z.boolean(),
  isTeacher: z.boolean(),
  /** Extra time (tiers-temps) an admin gave, in percent of each timed chapter's duration. */
  extraTimePercent: z.number().int().optional(),
});
export type User = z.infer<typeof userSchema>;

export const groupSummarySchema = z.object({ _id: z.string(), name: z.string() });
export type GroupSummary = z.infer<typeof groupSummarySchema>;

export const chapterSummarySchema = z.object({
  _id: z.string(),
  title: z.string(),
  analysis: z.boolean(),
  offline: z.boolean(),
});
export type ChapterSummary = z.infer<typeof chapterSummarySchema>;

/**
 * SPEC §5: complete when firstName, lastName, institution name and gender are present AND the user
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
  if (pupil && !user.emailParent) missing.push("E-mail d'un parent");
  if (pupil && !user.defaultChoice) missing.push("Choix par défaut du centre d'examen");
  if (!user.institution?.name) missing.push('Établissement');
  return missing;
}

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const optionalEmail = z.preprocess(
  emptyToNull,
  z.string().trim().toLowerCase().max(254).pipe(z.email({ error: 'Adresse e-mail invalide.' })).nullable(),
);
const personName = z.preprocess(emptyToNull, z.string().trim().max(100, { error: 'Nom trop long (100 caractères au plus).' }).nullable());

/** A real calendar date (rejects 2026-02-30), in the past, after 1900. */
export const pastDate = z.iso
  .date({ error: 'Date invalide (format AAAA-MM-JJ attendu).' })
  .refine((d) => {
    const parsed = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === d;
  }, 'Cette date n’existe pas.')
  .refine((d) => d >= '1900-01-01' && d < new Date().toISOString().slice(0, 10), 'La date de naissance doit être dans le passé.');

/** PUT /auth/me: an empty object reloads; any field present updates it. Role flags are not accepted. */
export const profileUpdateSchema = z
  .object({
    emailStudent: optionalEmail,
    emailParent: optionalEmail,
    emailOtherParent: optionalEmail,
    firstName: personName,
    lastName: personName,
    birthDate: z.preprocess(emptyToNull, pastDate.nullable()),
    gender: z.preprocess(emptyToNull, z.enum(GENDERS, { error: 'Genre invalide.' }).nullable()),
    grade: z.preprocess(emptyToNull, z.enum(GRADES, { error: 'Classe invalide.' }).nullable()),
    defaultChoice: z.preprocess(emptyToNull, z.enum(DEFAULT_CHOICES, { error: 'Choix invalide.' }).nullable()),
    institution: z.preprocess(emptyToNull, z.uuid({ error: 'Établissement invalide.' }).nullable()),
    emailNotifications: z.boolean({ error: 'La valeur des notifications doit être oui ou non.' }),
  })
  .partial();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
