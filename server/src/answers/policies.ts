import type { ErrorCode } from '@olympe/contract';
import type { AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';
import type { ChapterContext } from '../sessions/service.js';
import { checkSaveAllowed, FINISHED_MESSAGE, NOT_STARTED_MESSAGE } from '../sessions/state.js';

/** Per-record rules on answers (docs/architecture.md « Where things go »). */

/** docs/product.md#design-3: a PDF answer references a file the same user uploaded. */
export function assertMayAnswerWithFile(auth: AuthContext, file: { ownerId: string | null }): void {
  if (file.ownerId !== auth.userId) throw forbidden('Ce fichier ne vous appartient pas.');
}

export const PUBLISHED_MESSAGE = 'Les résultats sont publiés : les réponses ne sont plus modifiables.';
export const PAPER_CHAPTER_MESSAGE =
  'Cette épreuve se passe sur papier : votre copie est scannée et déposée par votre centre d’examen, pas en ligne.';

/** The codes of a refused save the web app tells apart (before the window opens it stays `forbidden`). */
const SAVE_REFUSAL_CODES: Record<string, ErrorCode> = { [FINISHED_MESSAGE]: 'test_finished', [NOT_STARTED_MESSAGE]: 'test_not_started' };

/**
 * POST /answer: staff always save; a pupil only in an online chapter whose results are not published, while
 * their session lets them (docs/product.md#design-3 Answers).
 */
export function assertMaySaveAnswer(ctx: ChapterContext, now: Date): void {
  if (ctx.staff) return;
  // A paper chapter's answers are the centre's sorted scans: nobody else may replace them.
  if (ctx.chapter.offline) throw forbidden(PAPER_CHAPTER_MESSAGE);
  if (ctx.chapter.analysis) throw forbidden(PUBLISHED_MESSAGE);
  const verdict = checkSaveAllowed(ctx.state, now, ctx.session !== null);
  if (!verdict.ok) throw forbidden(verdict.message, SAVE_REFUSAL_CODES[verdict.message]);
}
