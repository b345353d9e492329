import { describe, expect, it } from 'vitest';
import { formatGrade, formatPoints, formatTotal } from './grading-rules.js';

describe('grades as shown (decimal comma)', () => {
  it('writes stored grades with the decimal comma and keeps other cell values as they are', () => {
    expect(formatGrade('6.5')).toBe('6,5');
    expect(formatGrade('6.75')).toBe('6,75');
    expect(formatGrade('7')).toBe('7');
    expect(formatGrade('2.50')).toBe('2,5');
    for (const v of ['X', '?', '≠', ' ', '-']) expect(formatGrade(v)).toBe(v);
    expect(formatGrade(null)).toBe('');
    expect(formatGrade(undefined)).toBe('');
  });
  it('writes points and totals the same way', () => {
    expect(formatPoints(0.1 + 0.2)).toBe('0,3');
    expect(formatTotal(12.5, 20)).toBe('12,5\u00a0/\u00a020');
  });
});
