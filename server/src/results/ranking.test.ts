import { describe, expect, it } from 'vitest';
import { numericGrade, Ranking, roundTotal } from './ranking.js';

describe('Ranking', () => {
  it('gives tied totals the same rank and skips the next ones (1, 2, 2, 4)', () => {
    const ranking = new Ranking([10, 7, 7, 3]);
    expect([10, 7, 3].map((t) => ranking.standingOf(t).rank)).toEqual([1, 2, 4]);
    expect(ranking.participants).toBe(4);
  });

  it('computes the percentile rank from those below and half of those level', () => {
    const ranking = new Ranking([10, 7, 7, 3]);
    expect(ranking.standingOf(10).percentile).toBe(88); // (3 + 0.5) / 4
    expect(ranking.standingOf(7).percentile).toBe(50); // (1 + 1) / 4
    expect(ranking.standingOf(3).percentile).toBe(13); // (0 + 0.5) / 4
  });

  it('ranks a lone participant first', () => {
    expect(new Ranking([4]).standingOf(4)).toEqual({ rank: 1, participants: 1, percentile: 50 });
  });
});

describe('numericGrade', () => {
  it('reads numbers and leaves X and missing grades out', () => {
    expect(numericGrade('2.5')).toBe(2.5);
    expect(numericGrade('X')).toBeNull();
    expect(numericGrade(null)).toBeNull();
    expect(roundTotal(0.1 + 0.2)).toBe(0.3);
  });
});
