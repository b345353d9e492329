import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { formatPoints, type ExerciseStats } from '@olympe/contract';

/**
 * The distribution of an exercise's grades as bars (decision 75: a charting library, not hand-made SVG).
 * @mantine/charts and recharts are imported here only, so they load with the statistics page alone.
 */
export function GradeHistogram({ exercise }: { exercise: ExerciseStats }) {
  const data = exercise.distribution.map((d) => ({ note: formatPoints(d.grade), Copies: d.count }));
  const summary = exercise.distribution.map((d) => `${formatPoints(d.grade)} : ${d.count}`).join(' ; ');
  return (
    <figure style={{ margin: 0 }} aria-label={`Répartition des notes de « ${exercise.title} »`}>
      <BarChart
        h={180}
        data={data}
        dataKey="note"
        series={[{ name: 'Copies', color: 'blue.8' }]}
        tickLine="y"
        xAxisLabel="Note"
        yAxisLabel="Copies"
      />
      <figcaption style={{ fontSize: 'var(--mantine-font-size-sm)' }}>Répartition des notes (note : copies) — {summary}</figcaption>
    </figure>
  );
}
