import { eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { createSession, type SessionTokens } from '../auth/sessions.js';
import type { Deps } from '../deps.js';
import { auditLog, users } from '../db/schema.js';
import { notFound } from '../errors.js';
import { assertMayImpersonate } from './policies.js';

/**
 * POST /user/logto (docs/product.md#design-3): an admin obtains a session of a non-admin user. Its tokens carry
 * the admin as `actorId`; the session keeps the admin's token version, so the admin's password change ends it
 * (decision 136); the impersonation is written to the audit log (who, whom, when, from where).
 */
export async function impersonateUser(deps: Deps, auth: AuthContext, targetId: string, ip: string): Promise<SessionTokens> {
  const [target] = await deps.db
    .select({ id: users.id, email: users.email, tokenVersion: users.tokenVersion, isAdmin: users.isAdmin })
    .from(users)
    .where(eq(users.id, targetId));
  if (!target) throw notFound('Utilisateur introuvable.');
  assertMayImpersonate(target);
  const actorId = auth.actorId ?? auth.userId;
  const [actor] = await deps.db.select({ tokenVersion: users.tokenVersion }).from(users).where(eq(users.id, actorId));
  if (!actor) throw notFound('Utilisateur introuvable.');
  await deps.db.insert(auditLog).values({ actorId, action: 'user.impersonate', targetId: target.id, details: { email: target.email, ip } });
  return createSession(deps, {
    userId: target.id,
    tokenVersion: target.tokenVersion,
    actor: { id: actorId, tokenVersion: actor.tokenVersion },
  });
}
