import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules of the test sessions (docs/architecture.md « Where things go »). */

/** Admins and members, who read any pupil's session. */
export const isSessionStaff = (auth: AuthContext): boolean => auth.isAdmin || auth.isMember;

/** GET /chapter/receipt/{id}: a pupil reads their own receipt; `?user=` another's is for staff (decision 44). */
export function assertMaySeeReceipt(auth: AuthContext, user: string | undefined): void {
  if (user && user !== auth.userId && !isSessionStaff(auth)) throw forbidden();
}
