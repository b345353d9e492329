import { normalizeText, type OverviewRow } from '@olympe/contract';

/** docs/product.md#spec-9: the overview shows the comment cut at 40 characters. */
export const COMMENT_MAX = 40;

export function truncateComment(comment: string | null): string {
  const text = (comment ?? '').replace(/\s+/g, ' ').trim();
  const chars = Array.from(text); // by code point: an emoji or accent is never split
  return chars.length > COMMENT_MAX ? `${chars.slice(0, COMMENT_MAX).join('')}…` : text;
}

const fullName = (p: { firstName: string | null; lastName: string | null } | null) =>
  p ? `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() : '';

export interface OverviewLine extends OverviewRow {
  studentName: string;
  graderName: string;
  keys: { student: string; grader: string; exercise: string };
}

export function buildLines(rows: readonly OverviewRow[]): OverviewLine[] {
  return rows.map((r) => {
    const studentName = fullName(r.student);
    const graderName = r.grader ? fullName(r.grader) : 'Correction automatique';
    return {
      ...r,
      studentName,
      graderName,
      keys: { student: normalizeText(studentName), grader: normalizeText(graderName), exercise: normalizeText(r.exercise.title) },
    };
  });
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
