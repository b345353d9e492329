import type { Gender, Grade, InstitutionResults, ResultExercise, ResultsCard } from '@olympe/contract';
import { numericGrade } from './ranking.js';
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
