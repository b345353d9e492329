import { describe, expect, it } from 'vitest';
import { academyOfUai } from './academies.js';
import { type BoardColumns, computeCategory, type CutoffSettings, cutoffForTop, distribution } from './selections.js';

/** Decision 156: a category's list, the same function in the browser and on the server. */

interface Pupil {
  score: number;
  mask?: number;
  girl?: boolean;
  school?: number;
}

/** Board columns from pupils given best first (the board's order). */
function board(pupils: Pupil[]): BoardColumns {
  return {
    scores: pupils.map((p) => p.score),
    masks: pupils.map((p) => p.mask ?? 1),
    girls: pupils.map((p) => (p.girl ? 1 : 0)),
    schools: pupils.map((p) => p.school ?? -1),
  };
}

const settings = (s: Partial<CutoffSettings>): CutoffSettings => ({
  cutoff: null,
  atCutoff: null,
  minGirls: null,
  maxPerSchool: null,
  ...s,
});
/** Board indexes of the selected pupils. */
const selected = (o: ReturnType<typeof computeCategory>) => o.members.filter((_i, k) => o.selected[k]);

describe('computeCategory', () => {
  const scores = board([{ score: 20 }, { score: 15 }, { score: 12 }, { score: 12 }, { score: 8 }]);

  it('selects above the cut-off, nobody without one, and only the category’s pupils', () => {
    expect(selected(computeCategory(scores, 0, settings({ cutoff: 13 })))).toEqual([0, 1]);
    const none = computeCategory(scores, 0, settings({}));
    expect(none.count).toBe(0);
    expect(none.tieUnresolved).toBe(false);
    const two = board([
      { score: 20, mask: 2 },
      { score: 15, mask: 1 },
      { score: 14, mask: 3 },
    ]);
    const outcome = computeCategory(two, 1, settings({ cutoff: 10 }));
    expect(outcome.members).toEqual([0, 2]);
    expect(outcome.reasons).toEqual(['score', 'score']);
  });

  it('includes or excludes the tie at the cut-off as one group, and says when it is unresolved', () => {
    const include = computeCategory(scores, 0, settings({ cutoff: 12, atCutoff: 'include' }));
    expect(selected(include)).toEqual([0, 1, 2, 3]);
    expect(include.reasons.slice(2, 4)).toEqual(['tie', 'tie']);
    expect(selected(computeCategory(scores, 0, settings({ cutoff: 12, atCutoff: 'exclude' })))).toEqual([0, 1]);
    const open = computeCategory(scores, 0, settings({ cutoff: 12 }));
    expect(open.atCutoff).toEqual([2, 3]);
    expect(open.tieUnresolved).toBe(true);
    // Sums of weighted decimals: within 1e-6 of the cut-off is at it.
    expect(computeCategory(board([{ score: 0.1 + 0.2 }]), 0, settings({ cutoff: 0.3 })).tieUnresolved).toBe(true);
    expect(computeCategory(scores, 0, settings({ cutoff: 13 })).tieUnresolved).toBe(false);
  });

  it('leaves out, in score order, the pupils over the per-school quota', () => {
    const b = board([
      { score: 20, school: 0 },
      { score: 18, school: 0 },
      { score: 17, school: 1 },
      { score: 16 },
      { score: 15, school: 0 },
    ]);
    const outcome = computeCategory(b, 0, settings({ cutoff: 10, maxPerSchool: 1 }));
    expect(selected(outcome)).toEqual([0, 2, 3]);
    expect(outcome.reasons).toEqual(['score', 'school', 'score', 'score', 'school']);
  });

  it('adds the best girls left out up to the quota, within the school quota, and says when girls are short', () => {
    const b = board([
      { score: 20 },
      { score: 18, girl: true, school: 0 },
      { score: 9, girl: true, school: 0 },
      { score: 8, girl: true, school: 1 },
      { score: 7, girl: true },
    ]);
    const outcome = computeCategory(b, 0, settings({ cutoff: 15, minGirls: 3, maxPerSchool: 1 }));
    // The girl at 9 is in school 0, already full: the next girls (8, 7) come in.
    expect(selected(outcome)).toEqual([0, 1, 3, 4]);
    expect(outcome.reasons).toEqual(['score', 'score', null, 'girls', 'girls']);
    expect(outcome.girls).toBe(3);
    expect(outcome.girlsShort).toBe(false);
    const short = computeCategory(b, 0, settings({ cutoff: 15, minGirls: 5, maxPerSchool: 1 }));
    expect(short.girls).toBe(3);
    expect(short.girlsShort).toBe(true);
  });

  it('lets the jury’s decisions override the cut-off and both quotas', () => {
    const b = board([
      { score: 20, girl: true },
      { score: 18, school: 0 },
      { score: 17, school: 0 },
      { score: 5 },
      { score: 4, girl: true },
    ]);
    const decisions = new Map([
      [0, 'exclude' as const],
      [2, 'include' as const],
      [3, 'include' as const],
    ]);
    const outcome = computeCategory(b, 0, settings({ cutoff: 10, maxPerSchool: 1, minGirls: 1 }), decisions);
    // The excluded girl does not count for the quota: the next girl (4) comes in.
    expect(selected(outcome)).toEqual([1, 2, 3, 4]);
    expect(outcome.reasons).toEqual(['manual', 'score', 'manual', 'manual', 'girls']);
    expect(outcome.girls).toBe(1);
  });
});

describe('cutoffForTop and distribution', () => {
  it('puts the cut-off at the score of the n-th, so a tie at it shows', () => {
    const b = board([{ score: 20 }, { score: 15, mask: 2 }, { score: 12 }, { score: 12 }, { score: 8 }]);
    expect(cutoffForTop(b, 0, 3)).toBe(12);
    const outcome = computeCategory(b, 0, settings({ cutoff: cutoffForTop(b, 0, 3) }));
    expect(outcome.atCutoff).toEqual([2, 3]);
    expect(outcome.tieUnresolved).toBe(true);
    expect(cutoffForTop(b, 0, 10)).toBe(8);
    expect(cutoffForTop(b, 0, 0)).toBeNull();
    expect(cutoffForTop(b, 1, 1)).toBe(15);
    expect(cutoffForTop(board([]), 0, 1)).toBeNull();
  });

  it('counts a category’s scores per bin and those at or above each bin', () => {
    const b = board([{ score: 20 }, { score: 19, mask: 2 }, { score: 12 }, { score: 5 }, { score: 0 }]);
    expect(distribution(b, 0, 20, 4)).toEqual({ counts: [1, 1, 1, 1], atLeast: [4, 3, 2, 1] });
  });
});

describe('academyOfUai', () => {
  it('finds the académie of a UAI’s department', () => {
    expect(academyOfUai('0751234A')).toBe('Paris');
    expect(academyOfUai('0130002B')).toBe('Aix-Marseille');
    expect(academyOfUai('0921234X')).toBe('Versailles');
    expect(academyOfUai('0931234X')).toBe('Créteil');
    expect(academyOfUai('0941234X')).toBe('Créteil');
    expect(academyOfUai('6201234A')).toBe('Corse');
    expect(academyOfUai('9741234A')).toBe('La Réunion');
    expect(academyOfUai('0201234A')).toBeNull();
    expect(academyOfUai(null)).toBeNull();
  });
});
