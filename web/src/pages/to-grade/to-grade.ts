import type { Assignments, GradingTable } from '@olympe/contract';

/** An exercise with copies waiting for this corrector. */
export interface ExerciseToGrade {
  exerciseId: string;
  title: string;
  /** Copies answered and not graded yet. */
  waiting: number;
}

export interface ChapterToGrade {
  chapterId: string;
  title: string;
  exercises: ExerciseToGrade[];
  waiting: number;
}

/**
 * What of a chapter is the caller's to grade (decision 141), from the grading table's header counts (answered minus
 * graded per exercise) and the assignments: an exercise assigned to others is left out, as the next-copy route would
 * refuse it (`canTakeCopies`, server/src/grading/policies.ts); admins take any. Null when nothing waits.
 */
export function chapterToGrade(
  header: GradingTable,
  assignments: Assignments | undefined,
  me: { userId: string; isAdmin: boolean },
): ChapterToGrade | null {
  const counts = header.page?.counts ?? [];
  const assigned = new Map((assignments?.exercises ?? []).map((e) => [e._id, e.correctors]));
  const exercises: ExerciseToGrade[] = [];
  header.exercises.forEach((exercise, i) => {
    const count = counts[i];
    if (!count) return;
    const correctors = assigned.get(exercise._id) ?? [];
    if (!me.isAdmin && correctors.length > 0 && !correctors.includes(me.userId)) return;
    const waiting = Math.max(0, count.answered - count.graded);
    if (waiting > 0) exercises.push({ exerciseId: exercise._id, title: exercise.title, waiting });
  });
  if (exercises.length === 0) return null;
  return {
    chapterId: header.chapter._id,
    title: header.chapter.title,
    exercises,
    waiting: exercises.reduce((sum, e) => sum + e.waiting, 0),
  };
}

/** « 1 copie à corriger », « 3 copies à corriger ». */
export function waitingText(n: number): string {
  return `${n} ${n > 1 ? 'copies' : 'copie'} à corriger`;
}
