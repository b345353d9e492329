import { CELL_ARBITRATION, CELL_NONE, CELL_UNGRADED, type GradingTable } from '@olympe/contract';

/** The grading table header's counts as the web page computes them from the whole table. */
export function countsOf(table: GradingTable) {
  return table.exercises.map((_, i) => {
    const cells = Object.values(table.users).map((u) => u.data[i]);
    const answered = cells.filter((v) => v !== CELL_NONE && v !== '').length;
    const graded = cells.filter((v) => v !== CELL_NONE && v !== '' && v !== CELL_UNGRADED && v !== CELL_ARBITRATION).length;
    return { graded, answered };
  });
}
