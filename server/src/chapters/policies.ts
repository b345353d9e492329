import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules on chapters (docs/architecture.md « Where things go »). */

/**
 * A caller who is not staff opens a chapter through an access group that admits them; school staff also
 * see paper chapters, without a rule.
 */
export function assertMayOpenChapter(auth: AuthContext, chapter: { offline: boolean }, access: object | null): void {
  if (!access && !(auth.isTeacher && chapter.offline)) throw forbidden('Vous n’avez pas accès à ce chapitre.');
}
