import { z } from 'zod';
import { hasForbiddenNameCharacter, NAME_FORBIDDEN_CHARACTER_MESSAGE } from './names.js';
import { DEFAULT_CHOICES, GENDERS, GRADES } from './profile.js';

// The profile's values and rules carry no schema: the first load imports them from `@olympe/contract/profile`
// without zod (decision 56). Re-exported here so `@olympe/contract` and './user.js' keep offering them.
export {
  DEFAULT_CHOICES,
  GENDER_LABELS,
  GENDERS,
  GRADE_LABELS,
  GRADES,
  isProfileComplete,
  isStaffProfile,
  missingProfileFields,
  type DefaultChoice,
  type Gender,
  type Grade,
} from './profile.js';

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
  /** Family addresses of the profile (student, parents) waiting for their owner's confirmation (decision 134). */
  pendingEmails: z.array(z.string()).optional(),
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

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const optionalEmail = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .pipe(z.email({ error: 'Adresse e-mail invalide.' }))
    .nullable(),
);
const personName = z.preprocess(
  emptyToNull,
  z
    .string()
    .trim()
    .max(100, { error: 'Nom trop long (100 caractères au plus).' })
    .refine((v) => !hasForbiddenNameCharacter(v), { error: NAME_FORBIDDEN_CHARACTER_MESSAGE })
    .nullable(),
);

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
