import { forbidden } from '../errors.js';

/** Per-record rules of the operators' tools (docs/architecture.md « Where things go »). */

/** An admin never anonymises their own account (under impersonation, neither account of the token). */
export function assertMayAnonymise(actor: { userId: string; actorId?: string }, uid: string): void {
  if (uid === actor.userId || uid === actor.actorId) throw forbidden('Vous ne pouvez pas anonymiser votre propre compte.');
}
