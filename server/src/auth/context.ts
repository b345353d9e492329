import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { MEMBERS_GROUP_ID, TEACHERS_GROUP_ID } from '../db/schema.js';
import { forbidden, unauthorized } from '../errors.js';
import type { TokenSigner } from './tokens.js';

/** Who is calling, resolved once per request from the bearer token. */
export interface AuthContext {
  userId: string;
  isAdmin: boolean;
  isMember: boolean;
  isTeacher: boolean;
  institutionId: string | null;
  /** The admin behind an impersonation token. */
  actorId?: string;
}

export type Role = 'admin' | 'member' | 'teacher';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** A bearer token was sent but refused (tampered, expired, revoked). */
    authRejected: boolean;
  }
}

/** Reads the bearer token; the user row and role groups come in one query, so a revoked token fails at once. */
export async function resolveAuth(db: Db, signer: TokenSigner, header: string | undefined) {
  if (!header?.startsWith('Bearer ')) return { auth: null, rejected: false };
  const claims = await signer.verify(header.slice(7).trim());
  if (!claims) return { auth: null, rejected: true };
  const result = await db.execute<{
    token_version: number;
    is_admin: boolean;
    institution_id: string | null;
    is_member: boolean;
    is_teacher: boolean;
    actor_ok: boolean;
  }>(sql`
    SELECT u.token_version, u.is_admin, u.institution_id,
      EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = u.id AND m.group_id = ${MEMBERS_GROUP_ID}) AS is_member,
      EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = u.id AND m.group_id = ${TEACHERS_GROUP_ID}) AS is_teacher,
      ${claims.actorId ? sql`EXISTS (SELECT 1 FROM users a WHERE a.id = ${claims.actorId} AND a.is_admin)` : sql`TRUE`} AS actor_ok
    FROM users u WHERE u.id = ${claims.userId}`);
  const row = (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0];
  // An impersonation token dies with its admin's admin flag.
  if (!row || Number(row.token_version) !== claims.tokenVersion || !row.actor_ok) return { auth: null, rejected: true };
  const auth: AuthContext = {
    userId: claims.userId,
    isAdmin: !!row.is_admin,
    isMember: !!row.is_member,
    isTeacher: !!row.is_teacher,
    institutionId: (row.institution_id as string | null) ?? null,
    actorId: claims.actorId,
  };
  return { auth, rejected: false };
}

/** Guard: any logged-in user. */
export async function requireAuth(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.auth) {
    throw unauthorized(
      request.authRejected ? 'Votre session a expiré ou n’est plus valide. Reconnectez-vous.' : undefined,
    );
  }
}

/** DESIGN §3 "Who may call what": an admin may do everything a member or teacher may. */
export function hasRole(auth: AuthContext, role: Role): boolean {
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
