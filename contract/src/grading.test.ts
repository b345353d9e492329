import { describe, expect, it } from 'vitest';
import { cellKind, cellNumber, cellValue, gradeSaveSchema, normalizeGrade, totalOf } from './grading.js';

describe('cellValue (docs/product.md#spec-3 grading table values)', () => {
  it('is blank without a current answer, or with an empty one nobody graded', () => {
    expect(cellValue(null)).toBe(' ');
    expect(cellValue(undefined)).toBe(' ');
    expect(cellValue({ answered: false, grade: null })).toBe(' ');
  });
  it('is ? when answered and not graded', () => {
    expect(cellValue({ answered: true, grade: null })).toBe('?');
    expect(cellValue({ answered: true, grade: '' })).toBe('?');
  });
  it('is the grade, number or X, even on an empty answer', () => {
    expect(cellValue({ answered: true, grade: '7' })).toBe('7');
    expect(cellValue({ answered: true, grade: '2.5' })).toBe('2.5');
    expect(cellValue({ answered: true, grade: 'X' })).toBe('X');
    expect(cellValue({ answered: false, grade: '0' })).toBe('0');
  });
  it('classifies values for the display', () => {
    expect(cellKind(' ')).toBe('none');
    expect(cellKind('?')).toBe('ungraded');
    expect(cellKind('X')).toBe('excused');
    expect(cellKind('0')).toBe('graded');
  });
});

describe('totalOf (numbers only)', () => {
  it('sums numbers and ignores blank, ?, X and junk', () => {
    expect(totalOf(['1', ' ', '?', 'X', '2.5', 'abc'])).toBe(3.5);
    expect(totalOf([])).toBe(0);
    expect(totalOf(['X', '?'])).toBe(0);
    expect(totalOf(['0.1', '0.2'])).toBe(0.3);
  });
  it('reads a number value only when the whole cell is a number', () => {
    expect(cellNumber('3')).toBe(3);
    expect(cellNumber('3,5')).toBe(3.5);
    expect(cellNumber('3a')).toBeNull();
    expect(cellNumber('1e3')).toBeNull();
  });
});

describe('normalizeGrade', () => {
  it('accepts numbers with dot or comma, X in any case, and null/empty to clear', () => {
    expect(normalizeGrade('7')).toBe('7');
    expect(normalizeGrade(' 2,5 ')).toBe('2.5');
    expect(normalizeGrade('3.')).toBe('3');
    expect(normalizeGrade('x')).toBe('X');
    expect(normalizeGrade(4)).toBe('4');
    expect(normalizeGrade(0.5)).toBe('0.5');
    expect(normalizeGrade('')).toBeNull();
    expect(normalizeGrade(null)).toBeNull();
  });
  it('refuses negatives, words, exponents and huge values', () => {
    for (const bad of ['-1', 'abc', '1e3', '1.2.3', '?', '1234567', -2, Number.NaN, 1e21]) {
      expect(normalizeGrade(bad as string | number)).toBeUndefined();
    }
  });
  it('requires the version the corrector started from', () => {
    const base = { answerId: '00000000-0000-4000-8000-000000000001', grade: '1', grade_comment: '', hidden: false };
    expect(gradeSaveSchema.safeParse(base).success).toBe(false);
    expect(gradeSaveSchema.safeParse({ ...base, expectedGradeTimestamp: null }).success).toBe(true);
    expect(gradeSaveSchema.safeParse({ ...base, expectedGradeTimestamp: '2026-01-01T10:00:00.123Z' }).success).toBe(true);
  });
});
