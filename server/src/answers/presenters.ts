import type { MyAnswer } from '@olympe/contract';

/** Rows → the contract's answer shapes (docs/architecture.md « Response shaping »). */

/** A pupil's current answer; its grade and comment only once the chapter's results are published. */
export function presentMyAnswer(
  r: { exercise: string; answer: string; seq: number; createdAt: Date; grade: string | null; gradeComment: string | null },
  published: boolean,
): MyAnswer {
  return {
    exercise: r.exercise,
    answer: r.answer,
    seq: r.seq,
    timestamp: r.createdAt.toISOString(),
    ...(published ? { grade: r.grade, grade_comment: r.gradeComment } : {}),
  };
}
