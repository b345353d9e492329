import { CELL_NONE, type GradingTable } from '@olympe/contract';

/** One pupil as the table query returns them: their current answers packed in `cells`. */
export interface TableRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  grade: string | null;
  gender: string | null;
  birth_date: string | null;
  /** `{index}:{cell value}` per exercise with a current answer (the rule of `cellValue`, applied in SQL), joined by U+001F (grades never hold it). */
  cells: string | null;
}

export const CELL_SEPARATOR = '\x1f';

const COLON = 58;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/**
 * The `data` of one pupil from their packed cells. Read with indexOf/charCodeAt rather than split,
 * slice and Number: at 10,000 pupils × 12 cells, building and serialising the table 33 → 22 ms, with
 * less garbage (bench/grading). An entry whose index is not digits then ':' is ignored.
 */
export function cellsToData(cells: string | null, exerciseCount: number): string[] {
  const data = new Array<string>(exerciseCount).fill(CELL_NONE);
  if (!cells) return data;
  const end = cells.length;
  let start = 0;
  while (start < end) {
    let next = cells.indexOf(CELL_SEPARATOR, start);
    if (next < 0) next = end;
    let i = 0;
    let q = start;
    let c = cells.charCodeAt(q);
    while (c >= DIGIT_0 && c <= DIGIT_9) {
      i = i * 10 + (c - DIGIT_0);
      c = cells.charCodeAt(++q);
    }
    if (c === COLON && q > start && i < exerciseCount) data[i] = cells.slice(q + 1, next);
    start = next + 1;
  }
  return data;
}

/**
 * SPEC §3 Grading table: keyed by user id (in the query's order, by last name), one value per
 * answerable exercise in exercise order, following the cell rule of `cellValue`.
 */
export function buildTableUsers(rows: readonly TableRow[], exerciseCount: number): GradingTable['users'] {
  const users: GradingTable['users'] = {};
  for (const row of rows) users[row.id] = presentTableUser(row, cellsToData(row.cells, exerciseCount));
  return users;
}

/** One pupil of the table: the row's identity fields and their cells in exercise order. */
export function presentTableUser(row: Omit<TableRow, 'cells'>, data: string[]): GradingTable['users'][string] {
  return {
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    grade: row.grade,
    gender: row.gender,
    birthDate: row.birth_date,
    data,
  };
}
