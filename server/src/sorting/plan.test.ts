import { describe, expect, it } from 'vitest';
import { orderPart, planLabel } from './plan.js';

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
      {
        user: U1,
        exercise: E1,
        pages: [
          { pageNum: 1, rotation: 0 },
          { pageNum: 2, rotation: 180 },
        ],
      },
      { user: U1, exercise: E2, pages: [{ pageNum: 2, rotation: 180 }] },
      { user: U2, exercise: E1, pages: [{ pageNum: 4, rotation: 90 }] },
    ]);
    expect([...plan.firstPageOfUser]).toEqual([
      [U1, 1],
      [U2, 4],
    ]);
    expect([...plan.firstPageOfExercise]).toEqual([
      [E1, 1],
      [E2, 2],
    ]);
  });

  it('refuses pages beyond the PDF, pages twice and pupil pages without exercise, in page order', () => {
    expect(() => planLabel([{ pageNum: 2, user: U1, exercises: [E1], rotation: 0 }], 1)).toThrow('Page 2 : ce PDF n’a que 1 page.');
    expect(() =>
      planLabel(
        [
          { pageNum: 3, user: U1, exercises: [], rotation: 0 },
          { pageNum: 1, user: null, exercises: [], rotation: 0 },
          { pageNum: 1, user: U1, exercises: [E1], rotation: 0 },
        ],
        3,
      ),
    ).toThrow('Page 1 : cette page est indiquée plusieurs fois.');
    expect(() => planLabel([{ pageNum: 3, user: U1, exercises: [], rotation: 0 }], 3)).toThrow(
      /^Page 3\s: choisissez au moins un exercice/,
    );
    expect(planLabel([{ pageNum: 3, user: null, exercises: [], rotation: 0 }], 3).parts).toEqual([]);
  });

  it('orders each part by the page numbers printed in its codes, when the label agrees with the code', () => {
    const printed = new Map([
      [1, { user: U1, exercise: E1, sheetPage: 3 }],
      [2, { user: U2, exercise: E1, sheetPage: 2 }],
      [3, { user: U1, exercise: E1, sheetPage: 1 }],
      [4, { user: U2, exercise: E1, sheetPage: 1 }],
      // A blank sheet's code names no pupil: it still orders the sorter's pupil's pages.
      [5, { user: null, exercise: E2, sheetPage: 2 }],
      [6, { user: null, exercise: E2, sheetPage: 1 }],
      // The sorter gave this page to another exercise than its code's: the code is not used.
      [7, { user: U1, exercise: E2, sheetPage: 1 }],
    ]);
    const entry = (pageNum: number, user: string, exercise: string) => ({ pageNum, user, exercises: [exercise], rotation: 0 as const });
    const plan = planLabel(
      [entry(1, U1, E1), entry(2, U2, E1), entry(3, U1, E1), entry(4, U2, E1), entry(5, U2, E2), entry(6, U2, E2), entry(7, U1, E1)],
      7,
      printed,
    );
    expect(plan.parts.map((p) => [p.user, p.exercise, p.pages.map((x) => x.pageNum)])).toEqual([
      // Scanned 3, 1 (downwards: read backwards), then page 7 without a usable code: 7 came before 3.
      [U1, E1, [7, 3, 1]],
      [U2, E1, [4, 2]],
      [U2, E2, [6, 5]],
    ]);
  });
});

describe('orderPart (decision 108)', () => {
  const order = (sheetPages: Array<number | null>) =>
    orderPart(sheetPages.map((sheetPage, i) => ({ scan: i + 1, sheetPage }))).map((p) => p.scan);

  it('sorts by printed number, keeps pages without one behind the page scanned before them', () => {
    expect(order([2, 3, 1])).toEqual([3, 1, 2]);
    expect(order([2, null, 1, 3])).toEqual([3, 1, 2, 4]);
    // Nothing numbered before them: they stay first.
    expect(order([null, 3, 1, 2])).toEqual([1, 3, 4, 2]);
    expect(order([null, null])).toEqual([1, 2]);
    // A sheet scanned twice keeps the scan order.
    expect(order([1, 2, 1])).toEqual([1, 3, 2]);
  });

  it('reads a part whose numbers come mostly downwards backwards first: a spare sheet stays between its neighbours', () => {
    // 3, 2, spare, 1 (a pile fed from its end): 1, spare, 2, 3.
    expect(order([3, 2, null, 1])).toEqual([4, 3, 2, 1]);
    // Upwards: 1, spare, 2, 3 as scanned.
    expect(order([1, null, 2, 3])).toEqual([1, 2, 3, 4]);
  });
});
