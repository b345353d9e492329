import { COPIES_NOT_RETURNED_MESSAGE, RESULTS_NOT_PUBLISHED_MESSAGE } from '@olympe/contract';
import type { AuthContext } from '../auth/context.js';
import { isChapterPublished } from '../chapters/publication.js';
import { forbidden } from '../errors.js';
import { institutionInScope } from '../institutions/policies.js';

/** Per-record rules on results and certificates (docs/architecture.md « Where things go »). */

/**
 * The institution whose results a caller reads: school staff their own, from their membership on
 * the server (never a field they send); an admin names one.
 */
export function resultsInstitutionOf(auth: AuthContext, requested?: string): string {
  return institutionInScope(auth, requested, {
    unnamed: 'Indiquez l’établissement.',
    noSchool: 'Votre compte n’est rattaché à aucun établissement : demandez à un administrateur de l’y rattacher.',
    otherSchool: 'Vous ne pouvez voir que les résultats des élèves de votre établissement.',
  });
}

/** An admin reads a chapter's results at any time; anyone else once they are published. */
export function assertMaySeeResults(auth: AuthContext, chapter: Parameters<typeof isChapterPublished>[0], now: Date): void {
  if (!auth.isAdmin && !isChapterPublished(chapter, now)) throw forbidden(RESULTS_NOT_PUBLISHED_MESSAGE);
}

/** A pupil downloads their own certificate; only an admin names another pupil. */
export function assertMayGetCertificate(auth: AuthContext, target: string): void {
  if (target !== auth.userId && !auth.isAdmin) throw forbidden('Vous ne pouvez télécharger que votre propre attestation.');
}

/** Decision 162: a pupil reads their own corrected copies; only an admin names another pupil. */
export function assertMayGetReturnedCopy(auth: AuthContext, target: string): void {
  if (target !== auth.userId && !auth.isAdmin) throw forbidden('Vous ne pouvez voir que vos propres copies.');
}

/**
 * Decision 162: corrected copies go back once the results are published and the chapter returns them; an admin
 * reads them at any time (what the pupils will get).
 */
export function assertCopiesReturned(
  auth: AuthContext,
  chapter: Parameters<typeof isChapterPublished>[0] & { copiesReturned: boolean },
  now: Date,
): void {
  if (auth.isAdmin) return;
  if (!isChapterPublished(chapter, now)) throw forbidden(RESULTS_NOT_PUBLISHED_MESSAGE);
  if (!chapter.copiesReturned) throw forbidden(COPIES_NOT_RETURNED_MESSAGE);
}
