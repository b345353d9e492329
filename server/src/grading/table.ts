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

/**
 * SPEC §3 Grading table: keyed by user id (in the query's order, by last name), one value per
 * answerable exercise in exercise order, following the cell rule of `cellValue`.
 */
export function buildTableUsers(rows: readonly TableRow[], exerciseCount: number): GradingTable['users'] {
  const users: GradingTable['users'] = {};
  for (const row of rows) {
    const data = new Array<string>(exerciseCount).fill(CELL_NONE);
    for (const cell of row.cells ? row.cells.split(CELL_SEPARATOR) : []) {
      const colon = cell.indexOf(':');
      const i = Number(cell.slice(0, colon));
      if (i >= 0 && i < exerciseCount) data[i] = cell.slice(colon + 1);
    }
    users[row.id] = {
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      grade: row.grade,
      gender: row.gender,
      birthDate: row.birth_date,
      data,
    };
  }
  return users;
}
