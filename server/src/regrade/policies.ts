import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules on regrade requests (docs/architecture.md « Where things go »). */

const REGRADE_OWN_ONLY_MESSAGE = 'Vous ne pouvez demander le réexamen que de vos propres réponses.';

/**
 * A pupil asks for a regrade of their own answer only. Someone else's answer and an unknown one answer
 * alike: nothing tells a pupil what exists.
 */
export function assertMayRequestRegrade<T extends { user_id: string | null }>(
  auth: AuthContext,
  answer: T | undefined,
): asserts answer is T {
  if (!answer || answer.user_id !== auth.userId) throw forbidden(REGRADE_OWN_ONLY_MESSAGE);
}

/** Under anonymous correction, only an admin reads the pupils' names in the queue; correctors read pseudonyms (decision 62). */
export const canSeeNamesUnderAnonymity = (auth: AuthContext): boolean => auth.isAdmin;
