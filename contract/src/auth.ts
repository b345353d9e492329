import { z } from 'zod';

/** GET /auth/link/{token}: the link is checked when /confirm opens, without being used. */
export const linkCheckSchema = z.object({ valid: z.literal(true), email: z.string() });
export type LinkCheck = z.infer<typeof linkCheckSchema>;

/** POST /auth/confirm: the password is set and the user is logged in at once. */
export const confirmResultSchema = z.object({ message: z.string(), token: z.string() });
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

/**
 * Where a user goes back after logging in or choosing a password (`?retour=` on /login, /signup and
 * /confirm): a path of this site only. Anything else (another host, `//host`, a scheme) is dropped,
 * so a link cannot send a user elsewhere after they typed their password.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 500) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\u0000-\u001f]/.test(value)) return null;
  return value;
}

/** POST /auth/register: `retour` is carried in the e-mailed link. */
export const returnPathSchema = z
  .string()
  .max(500)
  .optional()
  .transform((v) => safeReturnPath(v) ?? undefined);
