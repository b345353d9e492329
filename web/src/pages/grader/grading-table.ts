import {
  CELL_ARBITRATION,
  cellKind,
  CELL_EXCUSED,
  CELL_NONE,
  formatGrade,
  formatPoints,
  GRADES_EXPORT_HEADER,
  outOf,
  GENDER_LABELS,
  GRADE_LABELS,
  normalizeText,
  totalOf,
  type CellKind,
  type Gender,
  type Grade,
  type GradingTable,
} from '@olympe/contract';
import type { CsvCell } from '../../lib/csv';

/** One line of the grading table, with what the page needs precomputed once per load. */
export interface GradingRow {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  grade: string | null;
  gender: string | null;
  birthDate: string | null;
  data: string[];
  /** Decision 139: indexes of the copies flagged « pages ajoutées après la note ». */
  pagesAdded?: number[];
  total: number;
  /** Normalised "last first" for the search box. */
  search: string;
}

export function buildRows(table: GradingTable): GradingRow[] {
  return Object.entries(table.users).map(([id, u]) => ({
    id,
    ...u,
    // Anonymous correction (decision 62): a corrector gets « Copie 0042 » in place of the names.
    lastName: u.pseudonym ?? u.lastName,
    total: totalOf(u.data),
    search: normalizeText(u.pseudonym ?? `${u.lastName ?? ''} ${u.firstName ?? ''}`),
  }));
}

/** A cell's kind, with « ≠ » (double correction, two grades too far apart) awaiting an admin. */
export type GradingCellKind = CellKind | 'arbitration';
export function gradingCellKind(value: string): GradingCellKind {
  return value === CELL_ARBITRATION ? 'arbitration' : cellKind(value);
}

/** docs/product.md#spec-2: "Rechercher par nom ou prénom", accent- and case-insensitive; every word must match. */
export function filterRows(rows: readonly GradingRow[], query: string): GradingRow[] {
  const words = normalizeText(query).split(' ').filter(Boolean);
  if (words.length === 0) return rows as GradingRow[];
  return rows.filter((r) => words.every((w) => r.search.includes(w)));
}

export interface ExerciseCount {
  graded: number;
  answered: number;
}

/** "graded / answered" under each exercise header: answered = any non-blank cell; graded = a number or X. */
export function countByExercise(rows: readonly GradingRow[], exerciseCount: number): ExerciseCount[] {
  const counts = Array.from({ length: exerciseCount }, () => ({ graded: 0, answered: 0 }));
  for (const row of rows) {
    for (let i = 0; i < exerciseCount; i++) {
      const kind = gradingCellKind(row.data[i] ?? CELL_NONE);
      if (kind === 'none') continue;
      counts[i].answered++;
      if (kind !== 'ungraded' && kind !== 'arbitration') counts[i].graded++;
    }
  }
  return counts;
}

/** The page's "corrected/answered" counter over the whole chapter. */
export function totalCounts(counts: readonly ExerciseCount[]): ExerciseCount {
  return counts.reduce((a, c) => ({ graded: a.graded + c.graded, answered: a.answered + c.answered }), { graded: 0, answered: 0 });
}

/** docs/product.md#spec-9: "{chapter title}_results.csv". */
export const resultsFileName = (title: string) => `${title}_results.csv`;

/**
 * docs/product.md#spec-9 grading CSV: e-mail, first name, last name, grade, gender, birth date (date part only),
 * total, then one column per exercise, empty for ' ' or X; the total's and each exercise's headers say their
 * maximum. Decision 71: it opens right in a French spreadsheet, so class and gender are words (« 3ème »,
 * « Féminin ») and points have the decimal comma (« 2,5 »); the writer quotes, doubles quotes and
 * neutralises formulas.
 */
export function resultsCsvRows(rows: readonly GradingRow[], exercises: GradingTable['exercises'], maxTotal?: number): CsvCell[][] {
  return [
    [...GRADES_EXPORT_HEADER, outOf('Total', maxTotal), ...exercises.map((e) => outOf(e.title, e.maxPoints))],
    ...rows.map((r) => [
      r.email,
      r.firstName,
      r.lastName,
      r.grade ? (GRADE_LABELS[r.grade as Grade] ?? r.grade) : '',
      r.gender ? (GENDER_LABELS[r.gender as Gender] ?? r.gender) : '',
      r.birthDate ? r.birthDate.slice(0, 10) : '',
      formatPoints(r.total),
      ...exercises.map((_, i) => {
        const v = r.data[i] ?? CELL_NONE;
        return v === CELL_NONE || v === CELL_EXCUSED || v === CELL_ARBITRATION ? '' : formatGrade(v);
      }),
    ]),
  ];
}
