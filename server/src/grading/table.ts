import { cellValue, CELL_NONE, type GradingTable } from '@olympe/contract';

/** One pupil as the table query returns them: their current answers as parallel arrays. */
export interface TableRow {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  grade: string | null;
  gender: string | null;
  birth_date: string | null;
  /** Index of each answered exercise in the chapter's order. */
  idx: number[];
  answered: boolean[];
  grades: Array<string | null>;
}

/**
 * SPEC §3 Grading table: keyed by user id (in the query's order, by last name), one value per
 * answerable exercise in exercise order, following the cell rule of `cellValue`.
 */
export function buildTableUsers(rows: readonly TableRow[], exerciseCount: number): GradingTable['users'] {
  const users: GradingTable['users'] = {};
  for (const row of rows) {
    const data = new Array<string>(exerciseCount).fill(CELL_NONE);
    for (let k = 0; k < row.idx.length; k++) {
      const i = row.idx[k];
      if (i >= 0 && i < exerciseCount) data[i] = cellValue({ answered: row.answered[k], grade: row.grades[k] });
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
