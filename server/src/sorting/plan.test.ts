import { describe, expect, it } from 'vitest';
import { planLabel } from './plan.js';

const U1 = '11111111-1111-4111-8111-111111111111';
const U2 = '22222222-2222-4222-8222-222222222222';
const E1 = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeee1';
const E2 = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeee2';

describe('planLabel', () => {
  it('groups pages by (pupil, exercise) in page order, drops blank and unsent pages', () => {
    const plan = planLabel(
      [
        { pageNum: 4, user: U2, exercises: [E1], rotation: 90 },
        { pageNum: 2, user: U1, exercises: [E1, E2, E2], rotation: 180 },
        { pageNum: 1, user: U1, exercises: [E1], rotation: 0 },
        { pageNum: 3, user: null, exercises: [E1], rotation: 0 },
      ],
      5,
    );
    expect(plan.parts).toEqual([
      { user: U1, exercise: E1, pages: [{ pageNum: 1, rotation: 0 }, { pageNum: 2, rotation: 180 }] },
      { user: U1, exercise: E2, pages: [{ pageNum: 2, rotation: 180 }] },
      { user: U2, exercise: E1, pages: [{ pageNum: 4, rotation: 90 }] },
    ]);
    expect([...plan.firstPageOfUser]).toEqual([[U1, 1], [U2, 4]]);
    expect([...plan.firstPageOfExercise]).toEqual([[E1, 1], [E2, 2]]);
  });

  it('refuses pages beyond the PDF, pages twice and pupil pages without exercise, in page order', () => {
    expect(() => planLabel([{ pageNum: 2, user: U1, exercises: [E1], rotation: 0 }], 1)).toThrow('Page 2 : ce PDF n’a que 1 page.');
    expect(() =>
      planLabel(
        [
          { pageNum: 3, user: U1, exercises: [], rotation: 0 },
          { pageNum: 1, user: null, exercises: [], rotation: 0 },
          { pageNum: 1, user: U1, exercises: [E1], rotation: 0 },
        ],
        3,
      ),
    ).toThrow('Page 1 : cette page est indiquée plusieurs fois.');
    expect(() => planLabel([{ pageNum: 3, user: U1, exercises: [], rotation: 0 }], 3)).toThrow(/^Page 3 : choisissez au moins un exercice/);
    expect(planLabel([{ pageNum: 3, user: null, exercises: [], rotation: 0 }], 3).parts).toEqual([]);
  });
});
