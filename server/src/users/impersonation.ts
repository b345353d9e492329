import { eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { auditLog, users } from '../db/schema.js';
import { notFound } from '../errors.js';
import { assertMayImpersonate } from './policies.js';

/**
 * POST /user/logto (docs/product.md#design-3): an admin obtains a token of a non-admin user. The token carries the
 * admin as `actorId`, and the impersonation is written to the audit log (who, whom, when, from where).
 */
export async function impersonateUser(deps: Deps, auth: AuthContext, targetId: string, ip: string): Promise<string> {
  const [target] = await deps.db
    .select({ id: users.id, email: users.email, tokenVersion: users.tokenVersion, isAdmin: users.isAdmin })
    .from(users)
    .where(eq(users.id, targetId));
  if (!target) throw notFound('Utilisateur introuvable.');
  assertMayImpersonate(target);
  const actorId = auth.actorId ?? auth.userId;
  await deps.db
    .insert(auditLog)
    .values({ actorId, action: 'user.impersonate', targetId: target.id, details: { email: target.email, ip } });
  return deps.signer.sign({ userId: target.id, tokenVersion: target.tokenVersion, actorId });
}
