import type { OwnQualification, SchoolQualified } from '@olympe/contract';
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

/** One qualified pupil of a school: who, their class, the category they are qualified in, their score. */
export function presentSchoolQualified(
  p: { id: string; first_name: string | null; last_name: string | null; grade: string | null; score: number },
  category: VersionCategory | null,
): SchoolQualified[number] {
  return { _id: p.id, firstName: p.first_name, lastName: p.last_name, grade: p.grade, category: category?.name ?? '', score: p.score };
}
