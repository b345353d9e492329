import type { AuthContext } from '../auth/context.js';
import type { Tx } from './client.js';
import { auditLog } from './schema.js';

/** Appends an admin or staff action to the audit log, in the caller's transaction: the admin behind an impersonation is the actor. */
export function audit(db: Tx, auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
  return db.insert(auditLog).values({ actorId: auth.actorId ?? auth.userId, action, targetId, details });
}
