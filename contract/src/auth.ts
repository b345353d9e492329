import { z } from 'zod';
import { safeReturnPath } from './return-path.js';

// Without zod, for the login screen's first load (decision 117).
export { safeReturnPath };

/** GET /auth/link/{token}: the link is checked when /confirm opens, without being used. */
export const linkCheckSchema = z.object({ valid: z.literal(true), email: z.string() });
export type LinkCheck = z.infer<typeof linkCheckSchema>;

/**
 * Decision 136: a session's tokens. `token` is the 15-minute bearer token; `refreshToken` gets new ones from
 * POST /auth/refresh until POST /auth/logout (or a password change) ends the session.
 */
export const sessionTokensSchema = z.object({ token: z.string(), refreshToken: z.string() });
export type SessionTokens = z.infer<typeof sessionTokensSchema>;

/** POST /auth/refresh. */
export const refreshSchema = z.object({
  refreshToken: z.string().min(1, { error: 'Session inconnue.' }).max(200, { error: 'Session inconnue.' }),
});

/** POST /auth/logout: the sessions of these refresh tokens end too (the admin's own, kept during an impersonation). */
export const logoutSchema = z.object({ refreshTokens: z.array(z.string().min(1).max(200)).max(4).optional() });

/** POST /auth/confirm: the password is set and the user is logged in at once. */
export const confirmResultSchema = sessionTokensSchema.extend({ message: z.string() });
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

/** POST /auth/register: `retour` is carried in the e-mailed link. */
export const returnPathSchema = z
  .string()
  .max(500)
  .optional()
  .transform((v) => safeReturnPath(v) ?? undefined);
