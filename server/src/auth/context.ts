import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { queryRows, type Db } from '../db/client.js';
import { MEMBERS_GROUP_ID, TEACHERS_GROUP_ID } from '../db/schema.js';
import { forbidden, unauthorized } from '../errors.js';
import type { TokenClaims, TokenSigner } from './tokens.js';

/** Who is calling, resolved once per request from the bearer token. */
export interface AuthContext {
  userId: string;
  isAdmin: boolean;
  isMember: boolean;
  isTeacher: boolean;
  institutionId: string | null;
  /** The admin behind an impersonation token. */
  actorId?: string;
  /** The token's version (checked against the user's row). */
  tokenVersion?: number;
  /** The token's session (decision 136), checked live on every request. */
  sessionId?: string;
  /**
   * Set only on routes that check the token in their own statement (SELF_CHECKED_ROUTES): the
   * signature is verified, the user row not yet, and the role flags are unknown (false).
   */
  unchecked?: true;
}

/**
 * Routes whose handler re-checks the token version, the roles and the impersonating admin in its
 * own statement (answers/service.ts saveAnswer), so the per-request lookup is skipped for them:
 * one round trip per save instead of two. The check is exact, not cached.
 */
export const SELF_CHECKED_ROUTES = new Set(['POST /api/answer']);

export const SESSION_EXPIRED_MESSAGE = 'Votre session a expiré ou n’est plus valide. Reconnectez-vous.';

export type Role = 'admin' | 'member' | 'teacher';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** A bearer token was sent but refused (tampered, expired, revoked). */
    authRejected: boolean;
  }
}

/**
 * What an auth decision reads of users row `u` besides `is_admin` (AuthRow): token version,
 * institution, roles, whether the impersonating admin `actor` (an SQL expression, NULL when
 * none) is still admin, and whether the token's `session` (NULL for a token signed without one) is
 * live: not revoked nor expired, opened for this user and actor, at the user's token version and, for an
 * impersonation, at the admin's (decision 136: the admin's password change ends it). Shared by the
 * per-request lookup and the save statement (sessions/service.ts, whose row already carries `is_admin`),
 * which re-checks it itself; a logout changes the save's fingerprint, so a memoised save re-decides.
 */
export const authColumnsSql = (actor: string, session: string) => `u.token_version, u.institution_id,
    EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = u.id AND m.group_id = '${MEMBERS_GROUP_ID}') AS is_member,
    EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = u.id AND m.group_id = '${TEACHERS_GROUP_ID}') AS is_teacher,
    (${actor} IS NULL OR EXISTS (SELECT 1 FROM users a WHERE a.id = ${actor} AND a.is_admin)) AS actor_ok,
    (${session} IS NULL OR EXISTS (
      SELECT 1 FROM auth_sessions s LEFT JOIN users sa ON sa.id = s.actor_id
      WHERE s.id = ${session} AND s.user_id = u.id AND s.actor_id IS NOT DISTINCT FROM ${actor}
        AND s.revoked_at IS NULL AND s.expires_at > now() AND s.token_version = u.token_version
        AND (s.actor_id IS NULL OR (sa.is_admin AND sa.token_version = s.actor_token_version))
    )) AS session_ok`;

/** The user's token version and roles, whether the impersonating admin is still admin, whether the session is live: one prepared statement. */
export const AUTH_SQL = `
  SELECT u.is_admin, ${authColumnsSql('$2::uuid', '$3::uuid')}
  FROM users u WHERE u.id = $1::uuid`;

export interface AuthRow {
  token_version: number;
  is_admin: boolean;
  institution_id: string | null;
  is_member: boolean;
  is_teacher: boolean;
  actor_ok: boolean;
  session_ok: boolean;
}

const authRow = z.object({
  token_version: z.number(),
  is_admin: z.boolean(),
  institution_id: z.string().nullable(),
  is_member: z.boolean(),
  is_teacher: z.boolean(),
  actor_ok: z.boolean(),
  session_ok: z.boolean(),
}) satisfies z.ZodType<AuthRow>;

/**
 * Reads the bearer token; the user row and role groups come in one query, so a revoked token fails
 * at once. On a SELF_CHECKED_ROUTES route (given `request`), the query is left to the handler.
 */
export async function resolveAuth(
  db: Db,
  signer: TokenSigner,
  header: string | undefined,
  request?: { method: string; routeOptions?: { url?: string } },
): Promise<{ auth: AuthContext | null; rejected: boolean }> {
  if (!header?.startsWith('Bearer ')) return { auth: null, rejected: false };
  const claims = await signer.verify(header.slice(7).trim());
  if (!claims) return { auth: null, rejected: true };
  if (request && SELF_CHECKED_ROUTES.has(`${request.method} ${request.routeOptions?.url}`)) {
    const { userId, actorId, tokenVersion, sessionId } = claims;
    return {
      auth: {
        userId,
        actorId,
        tokenVersion,
        sessionId,
        isAdmin: false,
        isMember: false,
        isTeacher: false,
        institutionId: null,
        unchecked: true,
      },
      rejected: false,
    };
  }
  return checkAuth(db, claims);
}

/** The per-request lookup for verified claims. */
export async function checkAuth(db: Db, claims: TokenClaims) {
  const [row] = await queryRows(db, authRow, 'auth_lookup', AUTH_SQL, [claims.userId, claims.actorId ?? null, claims.sessionId ?? null]);
  return authFromRow(claims, row);
}

/** The claims an auth context was made from. */
export const claimsOf = (auth: AuthContext): TokenClaims => ({
  userId: auth.userId,
  tokenVersion: auth.tokenVersion ?? NaN,
  actorId: auth.actorId,
  sessionId: auth.sessionId,
});

/** The auth context for verified claims and their users row (undefined: unknown user). */
export function authFromRow(claims: TokenClaims, row: AuthRow | undefined): { auth: AuthContext | null; rejected: boolean } {
  // An impersonation token dies with its admin's admin flag; any token with its session (logout, decision 136).
  if (!row || Number(row.token_version) !== claims.tokenVersion || !row.actor_ok || !row.session_ok) return { auth: null, rejected: true };
  const auth: AuthContext = {
    userId: claims.userId,
    isAdmin: !!row.is_admin,
    isMember: !!row.is_member,
    isTeacher: !!row.is_teacher,
    institutionId: row.institution_id ?? null,
    actorId: claims.actorId,
    tokenVersion: claims.tokenVersion,
    sessionId: claims.sessionId,
  };
  return { auth, rejected: false };
}

/** Guard: any logged-in user. */
export async function requireAuth(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.auth) {
    throw request.authRejected ? unauthorized(SESSION_EXPIRED_MESSAGE, 'session_expired') : unauthorized();
  }
}

/** docs/product.md#design-3 "Who may call what": an admin may do everything a member or teacher may. */
export function hasRole(auth: AuthContext, role: Role): boolean {
  if (auth.unchecked) throw new Error('Rôles inconnus : jeton non vérifié pour cette route.');
  if (auth.isAdmin) return true;
  if (role === 'member') return auth.isMember;
  if (role === 'teacher') return auth.isTeacher;
  return false;
}

/** Guard: logged in and holding one of the roles. */
export function requireRole(...roles: Role[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    await requireAuth(request, reply);
    if (!roles.some((r) => hasRole(request.auth!, r))) throw forbidden();
  };
}

/** The caller of a guarded handler (the guard guarantees it). */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
