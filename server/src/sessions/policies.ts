import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules of the test sessions (docs/architecture.md « Where things go »). */

/** Admins and members, who read any pupil's session. */
export const isSessionStaff = (auth: AuthContext): boolean => auth.isAdmin || auth.isMember;

/** GET /chapter/receipt/{id}: a pupil reads their own receipt; `?user=` another's is for staff (decision 44). */
export function assertMaySeeReceipt(auth: AuthContext, user: string | undefined): void {
  if (user && user !== auth.userId && !isSessionStaff(auth)) throw forbidden();
}

/** The groups the profile rule counts (docs/product.md#spec-5): school staff need no class. */
export const profileGroupsOf = (auth: AuthContext): string[] => (auth.isTeacher ? ['teachers'] : []);

/** School staff reach every paper chapter (docs/product.md#design-3), outside the access groups. */
export const canFollowPaperChapter = (auth: AuthContext, chapter: { offline: boolean }): boolean => auth.isTeacher && chapter.offline;
