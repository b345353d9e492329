import { describe, expect, it } from 'vitest';
import type { OverviewRow } from '@olympe/contract';
import { buildLines, filterLines, truncateComment } from './overview';

const row = (over: Partial<OverviewRow>): OverviewRow => ({
  _id: 'a1',
  student: { _id: 'u1', firstName: 'Léa', lastName: 'Gérard' },
  grader: { _id: 'g1', firstName: 'Rémi', lastName: 'Dupré' },
  exercise: { _id: 'e1', title: 'Équation' },
  grade: '3',
  grade_comment: 'Bien',
  grade_timestamp: '2026-03-01T10:00:00.000Z',
  ...over,
});

describe('overview', () => {
  it('cuts comments at 40 characters', () => {
    expect(truncateComment('a'.repeat(40))).toBe('a'.repeat(40));
    expect(truncateComment('é'.repeat(41))).toBe(`${'é'.repeat(40)}…`);
    expect(truncateComment(null)).toBe('');
    expect(truncateComment('ligne\nsuivante')).toBe('ligne suivante');
  });

  it('filters by student, grader and exercise, accent-insensitively, all together', () => {
    const lines = buildLines([
      row({}),
      row({ _id: 'a2', student: { _id: 'u2', firstName: 'Hugo', lastName: 'Martin' }, exercise: { _id: 'e2', title: 'Géométrie' } }),
      row({ _id: 'a3', grader: null }),
    ]);
    const ids = (f: Partial<{ student: string; grader: string; exercise: string }>) =>
      filterLines(lines, { student: '', grader: '', exercise: '', ...f }).map((l) => l._id);
    expect(ids({})).toEqual(['a1', 'a2', 'a3']);
    expect(ids({ student: 'GERARD' })).toEqual(['a1', 'a3']);
    expect(ids({ grader: 'remi' })).toEqual(['a1', 'a2']);
    expect(ids({ grader: 'automatique' })).toEqual(['a3']);
    expect(ids({ exercise: 'geometrie', student: 'hugo' })).toEqual(['a2']);
    expect(ids({ exercise: 'geometrie', student: 'lea' })).toEqual([]);
  });
});
