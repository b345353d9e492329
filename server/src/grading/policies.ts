import { hasRole, type AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules of the correction (docs/architecture.md « Where things go »). */

/**
 * Dividing the work (decision 64): an exercise with assigned correctors hands copies to them only (admins
 * excepted); an exercise without assignments to every corrector.
 */
export function canTakeCopies(auth: AuthContext, assigned: readonly string[] | undefined): boolean {
  return !assigned || auth.isAdmin || assigned.includes(auth.userId);
}

/** GET /answer/history/{uid}/{eid}: members and admins read any pupil's history, a pupil only their own. */
export function assertMaySeeHistory(auth: AuthContext, userId: string): void {
  if (!hasRole(auth, 'member') && auth.userId !== userId) throw forbidden();
}
