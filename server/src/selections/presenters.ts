import type { OwnQualification } from '@olympe/contract';
import type { OutcomeRow, SelectionVersion, VersionCategory } from './qualification.js';

/** Rows → the contract's shapes of the after-decision routes (docs/product.md#selections, decision 157). */

/** A pupil's line of a published selection: their status, category (and its cut-off) and score. */
export function presentOwnQualification(
  selection: SelectionVersion,
  outcome: OutcomeRow,
  category: VersionCategory | null,
): OwnQualification {
  return {
    selectionId: selection.id,
    title: selection.title,
    qualified: outcome.qualifiedIn.length > 0,
    category: category?.name ?? '',
    cutoff: category?.cutoff ?? null,
    score: outcome.score,
    nextRoundTitle: selection.nextRoundTitle,
    nextRoundDate: selection.nextRoundDate,
    nextRoundPlace: selection.nextRoundPlace,
  };
}
