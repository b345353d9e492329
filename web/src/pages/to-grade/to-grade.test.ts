import { describe, expect, it } from 'vitest';
import type { Assignments, GradingTable } from '@olympe/contract';
import { chapterToGrade, waitingText } from './to-grade';

const header = (counts: Array<{ graded: number; answered: number }>): GradingTable => ({
  chapter: { _id: 'c1', title: 'Coupe Olympe 2026 — premier tour', offline: true, analysis: false },
  exercises: [
    { _id: 'e1', title: 'Arithmétique', answerFormat: 'text' },
    { _id: 'e2', title: 'Géométrie', answerFormat: 'text' },
  ],
  page: { next: null, counts },
  users: {},
});

const assignments = (e1: string[], e2: string[]): Assignments => ({
  exercises: [
    { _id: 'e1', title: 'Arithmétique', correctors: e1 },
    { _id: 'e2', title: 'Géométrie', correctors: e2 },
  ],
  correctors: [],
});

const member = { userId: 'm1', isAdmin: false };

describe('chapterToGrade', () => {
  it('counts, per exercise, the copies answered and not yet graded', () => {
    const work = chapterToGrade(
      header([
        { graded: 3, answered: 10 },
        { graded: 4, answered: 4 },
      ]),
      assignments([], []),
      member,
    );
    expect(work).toEqual({
      chapterId: 'c1',
      title: 'Coupe Olympe 2026 — premier tour',
      exercises: [{ exerciseId: 'e1', title: 'Arithmétique', waiting: 7 }],
      waiting: 7,
    });
  });

  it('leaves out the exercises assigned to other correctors, keeps those assigned to the caller', () => {
    const counts = [
      { graded: 0, answered: 5 },
      { graded: 0, answered: 2 },
    ];
    expect(chapterToGrade(header(counts), assignments(['m2'], ['m1', 'm3']), member)?.exercises.map((e) => e.exerciseId)).toEqual(['e2']);
    expect(chapterToGrade(header(counts), assignments(['m2'], ['m3']), member)).toBeNull();
    // Admins take any copy (canTakeCopies).
    expect(chapterToGrade(header(counts), assignments(['m2'], ['m3']), { userId: 'a', isAdmin: true })?.waiting).toBe(7);
  });

  it('is null when every answer is graded or the header has no counts', () => {
    expect(
      chapterToGrade(
        header([
          { graded: 5, answered: 5 },
          { graded: 0, answered: 0 },
        ]),
        undefined,
        member,
      ),
    ).toBeNull();
    expect(chapterToGrade({ ...header([]), page: undefined }, undefined, member)).toBeNull();
  });

  it('words the count in French', () => {
    expect(waitingText(1)).toBe('1 copie à corriger');
    expect(waitingText(12)).toBe('12 copies à corriger');
  });
});
