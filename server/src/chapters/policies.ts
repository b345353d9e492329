import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules on chapters (docs/architecture.md « Where things go »). */

/** Admins and members see and read every chapter in full (docs/product.md#design-3 "Who may call what"). */
export const canReadEveryChapter = (auth: AuthContext): boolean => auth.isAdmin || auth.isMember;

/** School staff see the paper chapters, without an access rule. */
export const canSeePaperChapter = (auth: AuthContext, chapter: { offline: boolean }): boolean => auth.isTeacher && chapter.offline;

/** Teachers read the centres' instructions of a chapter beside the pupils' (GET /chapter/{id}). */
export const canReadCentreInstructions = (auth: AuthContext): boolean => auth.isTeacher;

/**
 * A caller who is not staff opens a chapter through an access group that admits them; school staff also
 * see paper chapters, without a rule.
 */
export function assertMayOpenChapter(auth: AuthContext, chapter: { offline: boolean }, access: object | null): void {
  if (!access && !canSeePaperChapter(auth, chapter)) throw forbidden('Vous n’avez pas accès à ce chapitre.');
}
