/** One participant's place among all of a chapter's participants (decision 70). */
export interface Standing {
  /** Ties share the rank: 1, 2, 2, 4. */
  rank: number;
  participants: number;
  /** Percentile rank: participants below plus half of those level, over all, in % (rounded). */
  percentile: number;
}

/** The totals of every participant, sorted once so that each lookup is two binary searches. */
export class Ranking {
  private readonly ascending: Float64Array;

  constructor(totals: Iterable<number>) {
    this.ascending = Float64Array.from(totals).sort();
  }

  get participants(): number {
    return this.ascending.length;
  }

  /** The standing of a total (one of the participants' totals). */
  standingOf(total: number): Standing {
    const n = this.ascending.length;
    const below = this.firstIndex((t) => t >= total);
    const notAbove = this.firstIndex((t) => t > total);
    const equal = notAbove - below;
    return {
      rank: n - notAbove + 1,
      participants: n,
      percentile: n === 0 ? 0 : Math.round((100 * (below + equal / 2)) / n),
    };
  }

  private firstIndex(pred: (t: number) => boolean): number {
    let lo = 0;
    let hi = this.ascending.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pred(this.ascending[mid])) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** A stored grade as a number (null: not graded or X); totals ignore what is not a number (docs/product.md#design-3). */
export function numericGrade(grade: string | null): number | null {
  if (grade === null || !/^-?\d+(\.\d+)?$/.test(grade.trim())) return null;
  return Number(grade);
}

/** Totals at 1/10,000 of a point, so that 0.1 + 0.2 and 0.3 rank level. */
export const roundTotal = (t: number) => Math.round(t * 10_000) / 10_000;
