import { z } from 'zod';
import { safeReturnPath } from './return-path.js';

// Without zod, for the login screen's first load (decision 117).
export { safeReturnPath };

/** GET /auth/link/{token}: the link is checked when /confirm opens, without being used. */
export const linkCheckSchema = z.object({ valid: z.literal(true), email: z.string() });
export type LinkCheck = z.infer<typeof linkCheckSchema>;

/** POST /auth/confirm: the password is set and the user is logged in at once. */
export const confirmResultSchema = z.object({ message: z.string(), token: z.string() });
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

/** POST /auth/register: `retour` is carried in the e-mailed link. */
export const returnPathSchema = z
  .string()
  .max(500)
  .optional()
  .transform((v) => safeReturnPath(v) ?? undefined);
