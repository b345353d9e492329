import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Deps } from '../deps.js';
import { authSessions, users } from '../db/schema.js';
import { unauthorized } from '../errors.js';
import { clientKeyOf } from '../http/client-address.js';
import { hitRateLimit } from '../http/rate-limit.js';
import type { AuthContext } from './context.js';
import { SESSION_EXPIRED_MESSAGE } from './context.js';
import { hashEmailToken, newEmailToken } from './tokens.js';

/** What a login, a link or an impersonation answers (decision 136). */
export interface SessionTokens {
  /** The 15-minute bearer token. */
  token: string;
  /** Gets new bearer tokens from POST /auth/refresh until the session ends. */
  refreshToken: string;
}

/**
 * Decision 136: a session unused for 7 days ends (each refresh moves its end), and none lasts more than
 * 30 days; an impersonation lasts 2 hours from its start, as its token did before.
 */
export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
export const SESSION_MAX_MS = 30 * 24 * 3600 * 1000;
export const IMPERSONATION_MS = 2 * 3600 * 1000;

/** Opens a session for a user (or an admin acting as them) and signs its first access token. */
export async function createSession(
  deps: Deps,
  opts: { userId: string; tokenVersion: number; actor?: { id: string; tokenVersion: number } },
): Promise<SessionTokens> {
  const { token: refreshToken, hash } = newEmailToken();
  const [row] = await deps.db
    .insert(authSessions)
    .values({
      userId: opts.userId,
      tokenVersion: opts.tokenVersion,
      actorId: opts.actor?.id ?? null,
      actorTokenVersion: opts.actor?.tokenVersion ?? null,
      refreshHash: hash,
      expiresAt: new Date(Date.now() + (opts.actor ? IMPERSONATION_MS : SESSION_IDLE_MS)),
    })
    .returning({ id: authSessions.id });
  const token = await deps.signer.sign({
    userId: opts.userId,
    tokenVersion: opts.tokenVersion,
    actorId: opts.actor?.id,
    sessionId: row.id,
  });
  return { token, refreshToken };
}

const actors = alias(users, 'actor');

/**
 * Per address (an IPv6 /64, decision 135): a school of several hundred pupils refreshes every 15 minutes,
 * far below this; it only bounds the lookups a script can cause (a refresh token cannot be guessed).
 */
export const REFRESH_IP_LIMIT = {
  limit: 600,
  windowSeconds: 60,
  message: 'Trop de demandes depuis cette adresse. Réessayez dans une minute.',
};

/**
 * POST /auth/refresh: a new access token for a live session. The refresh token stays the same (no rotation):
 * two tabs of one browser share it and may refresh together without logging each other out. Every
 * refusal is the same 401, after which the web app asks for a new login.
 */
export async function refreshSession(deps: Deps, input: { refreshToken: string; ip: string }): Promise<SessionTokens> {
  const { refreshToken } = input;
  await hitRateLimit(deps.limiter, { key: `refresh-ip:${clientKeyOf(input.ip)}`, ...REFRESH_IP_LIMIT });
  const [row] = await deps.db
    .select({
      id: authSessions.id,
      userId: authSessions.userId,
      actorId: authSessions.actorId,
      tokenVersion: authSessions.tokenVersion,
      actorTokenVersion: authSessions.actorTokenVersion,
      currentVersion: users.tokenVersion,
      actorVersion: actors.tokenVersion,
      actorIsAdmin: actors.isAdmin,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(actors, eq(actors.id, authSessions.actorId))
    .where(
      and(
        eq(authSessions.refreshHash, hashEmailToken(refreshToken)),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, new Date()),
      ),
    )
    .limit(1);
  const live =
    row &&
    row.currentVersion === row.tokenVersion &&
    (row.actorId === null || (row.actorIsAdmin === true && row.actorVersion === row.actorTokenVersion));
  if (!live) throw unauthorized(SESSION_EXPIRED_MESSAGE, 'session_expired');
  if (row.actorId === null) {
    // Sliding, within the 30-day cap.
    await deps.db
      .update(authSessions)
      .set({
        expiresAt: sql`LEAST(now() + make_interval(secs => ${SESSION_IDLE_MS / 1000}), ${authSessions.createdAt} + make_interval(secs => ${SESSION_MAX_MS / 1000}))`,
      })
      .where(eq(authSessions.id, row.id));
  }
  const token = await deps.signer.sign({
    userId: row.userId,
    tokenVersion: row.tokenVersion,
    actorId: row.actorId ?? undefined,
    sessionId: row.id,
  });
  return { token, refreshToken };
}

/**
 * POST /auth/logout: ends the caller's session, and those of the refresh tokens sent with it (the admin's
 * own session kept by the browser during an impersonation). A token from before sessions (no `sid`) can
 * only be ended with every other token of the user: its version moves on.
 */
export async function endSessions(deps: Deps, auth: AuthContext, refreshTokens: string[] = []): Promise<void> {
  const now = new Date();
  if (auth.sessionId) {
    await deps.db
      .update(authSessions)
      .set({ revokedAt: now })
      .where(and(eq(authSessions.id, auth.sessionId), isNull(authSessions.revokedAt)));
  } else if (!auth.actorId) {
    await deps.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, auth.userId));
  }
  if (refreshTokens.length > 0) {
    await deps.db
      .update(authSessions)
      .set({ revokedAt: now })
      .where(and(inArray(authSessions.refreshHash, refreshTokens.map(hashEmailToken)), isNull(authSessions.revokedAt)));
  }
}

/** Sessions over (expired, or revoked more than a day ago): the periodic purge deletes them; returns how many. */
export async function purgeEndedSessions(db: Deps['db']): Promise<number> {
  const deleted = await db
    .delete(authSessions)
    .where(sql`${authSessions.expiresAt} < now() OR ${authSessions.revokedAt} < now() - interval '1 day'`)
    .returning({ id: authSessions.id });
  return deleted.length;
}
