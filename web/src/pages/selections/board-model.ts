import {
  computeCategory,
  distribution,
  formatPoints,
  type Board,
  type CategoryOutcome,
  type CutoffSettings,
  type Decision,
  type DecisionKind,
  type SelectionReason,
} from '@olympe/contract';
import { frenchNumber } from '@olympe/contract/typography';

/**
 * The jury's board in the browser (docs/product.md#selections, decision 156): a category's list recomputed at
 * each move of its cut-off from the board fetched once, with what the screen shows of it. Pure, so it is
 * measured: a move over 10,000 pupils must show its counts in less than 50 ms.
 */

/** Board index of each key (pseudonym or name key), built once per board. */
export function keyIndexOf(board: Pick<Board, 'keys'>): Map<string, number> {
  return new Map(board.keys.map((key, i) => [key, i]));
}

/** The jury's decisions on one category, by board index (what `computeCategory` takes) and with their reasons. */
export function decisionsOf(
  decisions: readonly Decision[],
  categoryId: string,
  keyIndex: ReadonlyMap<string, number>,
): { kinds: Map<number, DecisionKind>; reasons: Map<number, string> } {
  const kinds = new Map<number, DecisionKind>();
  const reasons = new Map<number, string>();
  for (const d of decisions) {
    const i = d.categoryId === categoryId ? keyIndex.get(d.key) : undefined;
    if (i === undefined) continue;
    kinds.set(i, d.decision);
    reasons.set(i, d.reason);
  }
  return { kinds, reasons };
}

/** One line of the category's table. */
export interface PupilRow {
  index: number;
  rank: number;
  key: string;
  /** The pupil's name once shown, else their pseudonym. */
  label: string;
  score: number;
  selected: boolean;
  reason: SelectionReason | null;
  decision: DecisionKind | null;
  decisionReason: string;
}

/** Ranks with ties (« 1, 2, 2, 4 »), parallel to the category's members; they do not move with the cut-off. */
export function ranksOf(scores: readonly number[], members: readonly number[]): number[] {
  const ranks = new Array<number>(members.length);
  members.forEach((i, k) => {
    ranks[k] = k > 0 && Math.abs(scores[i]! - scores[members[k - 1]!]!) <= 1e-6 ? ranks[k - 1]! : k + 1;
  });
  return ranks;
}

export function rowsOf(
  board: Board,
  outcome: CategoryOutcome,
  ranks: readonly number[],
  decisions: ReturnType<typeof decisionsOf>,
): PupilRow[] {
  return outcome.members.map((i, k) => ({
    index: i,
    rank: ranks[k]!,
    key: board.keys[i]!,
    label: board.names?.[i] ?? board.keys[i]!,
    score: board.scores[i]!,
    selected: outcome.selected[k]!,
    reason: outcome.reasons[k]!,
    decision: decisions.kinds.get(i) ?? null,
    decisionReason: decisions.reasons.get(i) ?? '',
  }));
}

const REASONS: Record<SelectionReason, string> = {
  score: 'Au-dessus du seuil',
  tie: 'Ex æquo au seuil',
  girls: 'Quota filles',
  school: 'Quota par établissement',
  manual: 'Décision du jury',
};

/** The reason shown beside a pupil's status (decision 156: each status says why). */
export function reasonText(row: Pick<PupilRow, 'reason' | 'decisionReason'>): string {
  if (row.reason === null) return '';
  return row.reason === 'manual' ? `Décision du jury\u00a0: ${row.decisionReason}` : REASONS[row.reason];
}

export const statusText = (selected: boolean) => (selected ? 'Sélectionné(e)' : 'Non sélectionné(e)');

const plural = (n: number, one: string, many: string) => `${frenchNumber(n)}\u00a0${n > 1 ? many : one}`;

/** « 123 sélectionnés sur 1 500, dont 40 filles »: the live count, also the chart's words. */
export function countText(outcome: Pick<CategoryOutcome, 'count' | 'girls' | 'members'>): string {
  return `${plural(outcome.count, 'sélectionné(e)', 'sélectionné(e)s')} sur ${frenchNumber(outcome.members.length)}, dont ${plural(outcome.girls, 'fille', 'filles')}`;
}

/** How many histogram bars: one per point up to 40 points, else 40. */
export const binsFor = (maxScore: number) => Math.max(1, Math.min(40, Math.ceil(maxScore)));

export interface ChartBin {
  /** The bar's first score, as said on the axis (« 12 » or « 12,5 »). */
  from: string;
  start: number;
  count: number;
  atLeast: number;
}

/** The histogram and the cumulative « au moins x points » of one category; it does not move with the cut-off. */
export function chartOf(board: Board, categoryIndex: number): ChartBin[] {
  const bins = binsFor(board.maxScore);
  const { counts, atLeast } = distribution(board, categoryIndex, board.maxScore, bins);
  const width = board.maxScore > 0 ? board.maxScore / bins : 1;
  return counts.map((count, b) => ({ from: formatPoints(b * width), start: b * width, count, atLeast: atLeast[b]! }));
}

/** The bar a cut-off falls in, for the chart's reference line. */
export function binOfCutoff(chart: readonly ChartBin[], cutoff: number | null): string | null {
  if (cutoff === null || chart.length === 0) return null;
  let found = chart[0]!;
  for (const bin of chart) if (bin.start <= cutoff + 1e-9) found = bin;
  return found.from;
}

/** Everything a move of the cut-off recomputes: the list, its rows and counts (measured in board-model.test.ts). */
export function recompute(
  board: Board,
  categoryIndex: number,
  settings: CutoffSettings,
  decisions: ReturnType<typeof decisionsOf>,
  ranks: readonly number[] | null,
) {
  const outcome = computeCategory(board, categoryIndex, settings, decisions.kinds);
  const rowRanks = ranks ?? ranksOf(board.scores, outcome.members);
  return { outcome, ranks: rowRanks, rows: rowsOf(board, outcome, rowRanks, decisions), summary: countText(outcome) };
}

export const SECTORS: Record<string, string> = { public: 'Public', private: 'Privé' };
export const sectorText = (sector: string | null | undefined) => (sector ? (SECTORS[sector] ?? sector) : 'Inconnu');
