import { formatGrade, formatParisDateTime, formatPoints, normalizeText, type GradingView, type OverviewRow } from '@olympe/contract';
import type { CsvCell } from '../../lib/csv';

/** docs/product.md#spec-9: the overview shows the comment cut at 40 characters. */
export const COMMENT_MAX = 40;

export function truncateComment(comment: string | null): string {
  const text = (comment ?? '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(text); // by code point: an emoji or accent is never split
  return chars.length > COMMENT_MAX ? `${chars.slice(0, COMMENT_MAX).join('')}…` : text;
}

const fullName = (p: { firstName: string | null; lastName: string | null; pseudonym?: string } | null) =>
  p ? (p.pseudonym ?? `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim()) : '';

const AUTOMATIC = 'Correction automatique';

export interface OverviewLine extends OverviewRow {
  studentName: string;
  graderName: string;
  /** Double correction (decision 63): the two correctors' gradings in order, and the arbitration. */
  first?: GradingView;
  second?: GradingView;
  arbitration?: GradingView;
  keys: { student: string; grader: string; exercise: string };
}

export function buildLines(rows: readonly OverviewRow[]): OverviewLine[] {
  return rows.map((r) => {
    const studentName = fullName(r.student);
    const graderName = r.grader ? fullName(r.grader) : AUTOMATIC;
    const [first, second] = (r.gradings ?? []).filter((g) => !g.arbitration);
    const arbitration = r.gradings?.find((g) => g.arbitration);
    // The grader filter finds a copy by any of its correctors.
    const graders = [graderName, ...(r.gradings ?? []).map((g) => fullName(g.grader))].join(' ');
    return {
      ...r,
      studentName,
      graderName,
      first,
      second,
      arbitration,
      keys: { student: normalizeText(studentName), grader: normalizeText(graders), exercise: normalizeText(r.exercise.title) },
    };
  });
}

/**
 * The settled grade against the exercise's points, decimal comma (« 6,75 / 10 »). Under double correction a copy
 * with gradings but no settled grade yet reads « En attente » (its gradings are in their own columns); none: ''.
 */
export function gradeText(line: Pick<OverviewLine, 'grade' | 'exercise'> & Partial<Pick<OverviewLine, 'gradings'>>): string {
  if (line.grade !== null) return `${formatGrade(line.grade)}\u00a0/\u00a0${formatPoints(line.exercise.maxPoints)}`;
  return (line.gradings ?? []).some((g) => g.grade !== null) ? 'En attente' : '';
}

/** When the copy was last graded: its settled grade's instant, or else its latest grading's (double correction). */
export function gradedAt(line: Pick<OverviewLine, 'grade_timestamp'> & Partial<Pick<OverviewLine, 'gradings'>>): string | null {
  if (line.grade_timestamp) return line.grade_timestamp;
  const instants = (line.gradings ?? []).map((g) => g.timestamp).filter((t): t is string => Boolean(t));
  return instants.length === 0 ? null : instants.reduce((a, b) => (a > b ? a : b));
}

/** One grading as a cell: « 6,5 — Rémi Dupré » (just the grade for someone without a name). */
export function gradingText(g: GradingView | undefined): string {
  if (!g) return '';
  const grade = g.grade === null ? '–' : formatGrade(g.grade);
  const name = g.grader ? fullName(g.grader) : AUTOMATIC;
  return name ? `${grade} — ${name}` : grade;
}

/** The arbitration cell: the arbiter's grade, « À arbitrer » while two grades too far apart wait for an admin. */
export function arbitrationText(line: Pick<OverviewLine, 'arbitration' | 'status'>): string {
  if (line.arbitration) return gradingText(line.arbitration);
  return line.status === 'arbitration' ? 'À arbitrer' : '';
}

export interface OverviewFilters {
  student: string;
  grader: string;
  exercise: string;
}

/** docs/product.md#spec-2: three accent-insensitive text filters (student, grader, exercise); all must match. */
export function filterLines(lines: readonly OverviewLine[], filters: OverviewFilters): OverviewLine[] {
  const wanted = (Object.keys(filters) as Array<keyof OverviewFilters>)
    .map((k) => [k, normalizeText(filters[k])] as const)
    .filter(([, v]) => v !== '');
  if (wanted.length === 0) return lines as OverviewLine[];
  return lines.filter((l) => wanted.every(([k, v]) => l.keys[k].includes(v)));
}

/** « corrections_{chapter}.csv ». */
export const overviewCsvName = (chapterTitle: string) => `corrections_${chapterTitle}.csv`;

/**
 * The overview as CSV (admins): one line per copy with the settled grade and what it is graded on, and
 * in double correction both correctors' grades and the arbitration, each with who gave it. Grades are
 * kept as stored (2.5), as in the results CSV; the comment is whole.
 */
export function overviewCsvRows(lines: readonly OverviewLine[], double: boolean): CsvCell[][] {
  const name = (g: GradingView | undefined) => (g ? (g.grader ? fullName(g.grader) : AUTOMATIC) : '');
  const header = ['Élève', 'Exercice', 'Note', 'Sur', 'Correcteur', 'Commentaire', 'Date'];
  if (double) header.push('1re correction', '1er correcteur', '2e correction', '2e correcteur', 'Arbitrage', 'Arbitre');
  return [
    header,
    ...lines.map((l) => {
      const row: CsvCell[] = [
        l.studentName,
        l.exercise.title,
        l.grade,
        l.exercise.maxPoints,
        l.graderName,
        l.grade_comment,
        l.grade_timestamp ? formatParisDateTime(l.grade_timestamp) : '',
      ];
      if (double) {
        const arbitration = l.arbitration ? l.arbitration.grade : l.status === 'arbitration' ? 'À arbitrer' : '';
        row.push(l.first?.grade, name(l.first), l.second?.grade, name(l.second), arbitration, name(l.arbitration));
      }
      return row;
    }),
  ];
}
