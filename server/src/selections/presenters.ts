import {
  academyOfUai,
  type Board,
  type OwnQualification,
  type SchoolQualified,
  type Category,
  type Decision,
  type Selection,
  type SelectionRight,
  type SelectionSummary,
  type VersionSummary,
} from '@olympe/contract';
import type { BoardData } from './board-data.js';
import type { ChangeRow, VersionChanges } from './changes.js';
import { categorySettings } from './versions.js';
import { type CategoryRow, type DecisionRow, personName, type SelectionRow, type VersionRow } from './queries.js';
import type { OutcomeRow, SelectionVersion, VersionCategory } from './qualification.js';

/** The jury's shapes, from an allow-list of fields (docs/product.md#selections, decision 155). */

export function presentCategory(c: CategoryRow): Category {
  return categorySettings(c);
}

export function presentVersionSummary(v: VersionRow): VersionSummary {
  return {
    number: v.number,
    frozenAt: v.frozen_at.toISOString(),
    frozenBy: personName(v.first_name, v.last_name),
    reason: v.reason,
    qualified: v.qualified,
    participants: v.participants,
  };
}

/** Published: a version exists and its instant has passed (decision 157, the rule of decision 69). */
const isPublished = (s: SelectionRow, versions: number, now: Date) =>
  versions > 0 && s.publishAt !== null && s.publishAt.getTime() <= now.getTime();

const juryRight = (value: string) => (value === 'decide' ? 'decide' : 'read');

export function presentSelection(
  s: SelectionRow,
  categories: CategoryRow[],
  chapterTitles: ReadonlyMap<string, string>,
  versions: VersionRow[],
  right: SelectionRight,
  namesShown: boolean,
  now: Date,
): Selection {
  return {
    _id: s.id,
    title: s.title,
    chapters: s.chapters.map((c) => ({ chapterId: c.chapterId, title: chapterTitles.get(c.chapterId) ?? '', weight: c.weight })),
    categories: categories.map(presentCategory),
    nextRoundTitle: s.nextRoundTitle,
    nextRoundDate: s.nextRoundDate,
    nextRoundPlace: s.nextRoundPlace,
    juryGroupId: s.juryGroupId,
    juryRight: juryRight(s.juryRight),
    publishAt: s.publishAt?.toISOString() ?? null,
    published: isPublished(s, versions.length, now),
    namesShown,
    versions: versions.map(presentVersionSummary),
    right,
  };
}

export function presentSelectionSummary(s: SelectionRow, versions: number, right: SelectionRight, now: Date): SelectionSummary {
  return {
    _id: s.id,
    title: s.title,
    published: isPublished(s, versions, now),
    publishAt: s.publishAt?.toISOString() ?? null,
    right,
    versions,
  };
}

/** Decisions by board key; those on pupils no longer on the board are left out. */
export function presentDecisions(decisions: DecisionRow[], keyOf: ReadonlyMap<string, string>): Decision[] {
  return decisions.flatMap((d) => {
    const key = keyOf.get(d.user_id);
    if (key === undefined) return [];
    return [
      {
        categoryId: d.category_id,
        key,
        decision: d.decision,
        reason: d.reason,
        by: personName(d.first_name, d.last_name),
        at: d.decided_at.toISOString(),
      },
    ];
  });
}

/**
 * The board (decision 155): keys, never user ids; names and school names only once names are shown. The académie
 * is the school's, else the one of its UAI's department (decision 158).
 */
export function presentBoard(data: BoardData, namesShown: boolean, decisions: Decision[], drift: Board['drift']): Board {
  return {
    exercises: data.exercises.map((e) => ({ chapterTitle: e.chapterTitle, title: e.title, maxPoints: e.maxPoints })),
    maxScore: data.maxScore,
    keys: data.keys,
    names: namesShown ? data.names : null,
    scores: data.scores,
    masks: data.masks,
    girls: data.girls,
    schools: data.schools,
    schoolTable: data.schoolTable.map((s) => ({
      sector: s.sector,
      academy: s.academyName ?? academyOfUai(s.uai),
      name: namesShown ? s.name : null,
    })),
    exerciseScores: data.exerciseScores,
    decisions,
    drift,
  };
}

/** Who changed status between two versions (decision 157): keys, names once shown. */
export function presentVersionChanges(changes: ChangeRow[], keyOf: ReadonlyMap<string, string>, namesShown: boolean): VersionChanges {
  return changes.map((c) => ({
    key: keyOf.get(c.user_id)!,
    name: namesShown ? personName(c.first_name, c.last_name) : null,
    categoryId: c.category_id,
    before: c.before,
    after: !c.before,
  }));
}

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
