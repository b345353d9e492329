import { z } from 'zod';
import { userSchema } from './user.js';

/** docs/product.md#spec-9: default name of a group added on /groups. */
export const NEW_GROUP_NAME = 'Nouveau groupe';
/** The two groups that define roles (docs/product.md#design-3): never deleted nor renamed, names reserved. */
export const SYSTEM_GROUP_NAMES = ['teachers', 'members'] as const;
/** Upper bound of one PATCH /group/{id} members list (a whole cup's pupils fit). */
export const MAX_GROUP_EMAILS = 50_000;

/**
 * docs/product.md#spec-5: a group e-mail list is split on whitespace, commas or semicolons and lower-cased.
 * Empty pieces are dropped and duplicates kept once (first occurrence order).
 */
export function splitEmailList(text: string): string[] {
  const seen = new Set<string>();
  for (const piece of text.split(/[\s,;]+/)) {
    const email = piece.trim().toLowerCase();
    if (email) seen.add(email);
  }
  return [...seen];
}

/** True for 'teachers' and 'members' whatever the case: no other group may take a role's name. */
export function isReservedGroupName(name: string): boolean {
  return (SYSTEM_GROUP_NAMES as readonly string[]).includes(name.trim().toLowerCase());
}

export const groupNameSchema = z
  .string({ error: 'Le nom du groupe est requis.' })
  .trim()
  .min(1, { error: 'Le nom du groupe ne peut pas être vide.' })
  .max(100, { error: 'Nom de groupe trop long (100 caractères au plus).' });

/** One member row of GET /group/{id}: the user's fields (no role flags but isAdmin, for "Simuler"). */
export const groupMemberSchema = userSchema.omit({ isMember: true, isTeacher: true });
export type GroupMember = z.infer<typeof groupMemberSchema>;

/** GET /group/{id}: name and members, sorted by last name then first name. */
export const groupDetailSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** 'teachers' or 'members' groups: cannot be deleted or renamed. */
  system: z.boolean(),
  members: z.array(groupMemberSchema),
});
export type GroupDetail = z.infer<typeof groupDetailSchema>;

export const createGroupSchema = z.object({ name: groupNameSchema });
export type CreateGroup = z.infer<typeof createGroupSchema>;

/** PATCH /group/{id}: either a new name, or the full list of member e-mails (docs/product.md#spec-7). */
export const updateGroupSchema = z
  .object({
    name: groupNameSchema.optional(),
    members: z
      .array(z.string().trim().toLowerCase().max(254, { error: 'Adresse e-mail trop longue.' }), {
        error: 'La liste des membres doit être une liste d’adresses e-mail.',
      })
      .max(MAX_GROUP_EMAILS, { error: `Au plus ${MAX_GROUP_EMAILS} adresses par enregistrement.` })
      .optional(),
  })
  .refine((b) => (b.name === undefined) !== (b.members === undefined), {
    error: 'Indiquez soit un nom, soit la liste des membres.',
  });
export type UpdateGroup = z.infer<typeof updateGroupSchema>;

/** PATCH /group/{id} answer; `unknown` lists e-mails matching no account (the save is then refused). */
export const updateGroupResultSchema = z.object({
  message: z.string(),
  added: z.number().optional(),
  removed: z.number().optional(),
  unknown: z.array(z.string()).optional(),
});
export type UpdateGroupResult = z.infer<typeof updateGroupResultSchema>;

/** POST /user/logto: the impersonation session's tokens for the target user (decision 136). */
export const logtoSchema = z.object({ uid: z.uuid({ error: 'Identifiant d’utilisateur invalide.' }) });
export const logtoResultSchema = z.object({ token: z.string(), refreshToken: z.string() });
