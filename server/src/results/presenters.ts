import {
  annotationSchema,
  type Annotation,
  type Gender,
  type Grade,
  type InstitutionResults,
  type ResultExercise,
  type ResultsCard,
  type ReturnedCopies,
  type ReturnedExercise,
} from '@olympe/contract';
import { numericGrade } from './ranking.js';
import type { ReturnedCopyRow } from './returned-copies.js';
import type { ChapterResults, GradeCell, InstitutionPupil } from './service.js';

/** One exercise's cell: a number, X (excused), or nothing yet. */
function presentCell(cell: GradeCell | undefined): Pick<ResultExercise, 'grade' | 'excused' | 'comment'> {
  return {
    grade: numericGrade(cell?.grade ?? null),
    excused: cell?.grade?.trim().toUpperCase() === 'X',
    comment: cell?.comment ?? '',
  };
}

/** Rank, participants, percentile when the chapter shows them; `qualified` when it has a threshold. */
function presentStanding(results: ChapterResults, userId: string) {
  const { chapter, totals, ranking } = results;
  const total = totals.get(userId);
  const out: Pick<ResultsCard, 'rank' | 'participants' | 'percentile' | 'qualified'> = {};
  if (chapter.showRank && total !== undefined) {
    const standing = ranking.standingOf(total);
    out.rank = standing.rank;
    out.participants = standing.participants;
    out.percentile = standing.percentile;
  }
  if (chapter.qualificationThreshold !== null) out.qualified = total !== undefined && total >= chapter.qualificationThreshold;
  return out;
}

/**
 * A pupil's results card, built from an allow-list (docs/product.md#style (§5)): grades, maxima,
 * comments, totals and the standing. Never the grader, the hidden flag, the version or an expected answer.
 */
export function presentResultsCard(results: ChapterResults, userId: string, grades: Map<string, GradeCell>): ResultsCard {
  const { chapter } = results;
  return {
    chapter: { _id: chapter.id, title: chapter.title },
    exercises: results.exercises.map((e) => ({ _id: e.id, title: e.title, maxPoints: e.maxPoints, ...presentCell(grades.get(e.id)) })),
    total: results.totals.get(userId) ?? 0,
    maxTotal: results.maxTotal,
    // Decision 139: a pupil with no answer in the chapter reads « Vous n’avez pas participé », not « 0 / 8 ».
    participated: results.totals.has(userId),
    // Decision 162: said only when the chapter returns its copies.
    ...(chapter.copiesReturned ? { copiesReturned: true } : {}),
    ...presentStanding(results, userId),
    ...(chapter.qualificationThreshold !== null ? { qualificationText: chapter.qualificationText } : {}),
  };
}

/** A school's pupils, the same fields as their cards, plus class and gender for the teachers' tables. */
export function presentInstitutionResults(
  results: ChapterResults,
  institution: { id: string; name: string },
  pupils: InstitutionPupil[],
  grades: Map<string, Map<string, GradeCell>>,
): InstitutionResults {
  const { chapter } = results;
  return {
    chapter: { _id: chapter.id, title: chapter.title },
    institution: { _id: institution.id, name: institution.name },
    exercises: results.exercises.map((e) => ({ _id: e.id, title: e.title, maxPoints: e.maxPoints })),
    maxTotal: results.maxTotal,
    ...(chapter.qualificationThreshold !== null ? { qualificationText: chapter.qualificationText } : {}),
    ...(chapter.copiesReturned ? { copiesReturned: true } : {}),
    pupils: pupils.map((p) => ({
      _id: p.id,
      firstName: p.first_name,
      lastName: p.last_name,
      grade: p.grade as Grade | null,
      gender: p.gender as Gender | null,
      grades: results.exercises.map((e) => presentCell(grades.get(p.id)?.get(e.id))),
      total: results.totals.get(p.id) ?? 0,
      ...presentStanding(results, p.id),
    })),
  };
}

/** Stored marks as the contract reads them: a mark that does not read (an older shape) is left out, never a 500. */
function presentAnnotations(stored: unknown): Annotation[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((a) => {
    const parsed = annotationSchema.safeParse(a);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * One exercise of a returned copy (decision 162): grade, comment, the copy's file and the marks of the grade that
 * counts; a corrector's name only when the chapter names them, never otherwise.
 */
export function presentReturnedExercise(row: ReturnedCopyRow, correctorNamed: boolean): ReturnedExercise {
  const layers = row.layers.map((l) => ({
    ...(correctorNamed && l.corrector ? { corrector: l.corrector } : {}),
    annotations: presentAnnotations(l.annotations),
  }));
  const used = new Set(layers.flatMap((l) => l.annotations.flatMap((a) => (a.kind === 'item' ? [a.itemId] : []))));
  return {
    _id: row.exercise.id,
    title: row.exercise.title,
    maxPoints: row.exercise.maxPoints,
    ...presentCell(row.answer ? { grade: row.answer.grade, comment: row.answer.grade_comment ?? '' } : undefined),
    pdf: row.answer?.file_id ? `pdfs/${row.answer.file_id}.pdf` : null,
    layers,
    items: row.exercise.schemeItems.filter((i) => used.has(i.id)),
  };
}

/** GET /results/{chapterId}/copies: a pupil's returned copies. */
export function presentReturnedCopies(
  chapter: { id: string; title: string; correctorNamed: boolean },
  copies: ReturnedCopyRow[],
): ReturnedCopies {
  return {
    chapter: { _id: chapter.id, title: chapter.title },
    exercises: copies.map((c) => presentReturnedExercise(c, chapter.correctorNamed)),
  };
}
