import type { AuthContext } from '../auth/context.js';
import { canReadEveryChapter } from '../chapters/policies.js';

/** Per-record rules on exercises (docs/architecture.md « Where things go »). */

/**
 * Admins, members and school staff read a chapter's statements as staff (every version, under the staff rule of
 * when a statement may be read); anyone else reads their own version, as the chapter page shows it.
 */
export const canReadStatementsAsStaff = (auth: AuthContext): boolean => canReadEveryChapter(auth) || auth.isTeacher;
