import { memo } from 'react';
import { Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatPoints } from '@olympe/contract';
import { binOfCutoff, type ChartBin } from './board-model';

/** The chart's words for who cannot see it: each bar's count and how many have at least its score. */
export function chartText(chart: readonly ChartBin[]): string {
  return chart
    .filter((b) => b.count > 0)
    .map((b) => `à partir de ${b.from} points : ${b.count} élève${b.count > 1 ? 's' : ''}, ${b.atLeast} au moins`)
    .join(' ; ');
}

/**
 * A category's scores (docs/product.md#selections): the histogram in bars, the cumulative count « au moins x
 * points » as a line, the cut-off as a vertical line. recharts is imported here only, so it loads with the board.
 */
export const ScoreChart = memo(function ScoreChart({ chart, cutoff, name }: { chart: ChartBin[]; cutoff: number | null; name: string }) {
  const at = binOfCutoff(chart, cutoff);
  return (
    <figure style={{ margin: 0 }} aria-label={`Répartition des scores de la catégorie « ${name} »`}>
      <div aria-hidden="true" style={{ width: '100%', height: 240 }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={chart} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="from" />
            <YAxis yAxisId="count" allowDecimals={false} width={40} />
            <YAxis yAxisId="atLeast" orientation="right" allowDecimals={false} width={48} />
            <Tooltip formatter={(value, key) => [String(value), key === 'count' ? 'Élèves' : 'Au moins ce score']} />
            <Bar yAxisId="count" dataKey="count" fill="var(--mantine-color-blue-7)" isAnimationActive={false} />
            <Line yAxisId="atLeast" dataKey="atLeast" stroke="var(--mantine-color-orange-8)" dot={false} isAnimationActive={false} />
            {at !== null && (
              <ReferenceLine
                yAxisId="count"
                x={at}
                stroke="var(--mantine-color-red-9)"
                strokeWidth={2}
                label={{ value: `Seuil ${formatPoints(cutoff!)}`, position: 'top' }}
              />
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <figcaption style={{ fontSize: 'var(--mantine-font-size-sm)' }}>
        Barres : élèves par score ; ligne : élèves ayant au moins ce score ; trait rouge : le seuil. {chartText(chart)}
      </figcaption>
    </figure>
  );
});
