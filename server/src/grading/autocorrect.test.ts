import { describe, expect, it } from 'vitest';
import { autoGrade, parseNumericAnswer } from './autocorrect.js';

describe('parseNumericAnswer', () => {
  it.each([
    ['42', 42],
    ['3,5', 3.5],
    ['3.5', 3.5],
    ['  7 ', 7],
    ['1 000', 1000],
    ['1\u202f000,25', 1000.25],
    ['-12', -12],
    ['-0,5', -0.5],
    ['+3', 3],
    ['.5', 0.5],
    ['5.', 5],
  ])('%j is %d', (text, value) => expect(parseNumericAnswer(text)).toBe(value));

  it.each(['', ' ', '1e3', '1E3', 'abc', '1/2', '1,2,3', '1.2.3', '--1', '1-2', '-', ',', 'Infinity', 'NaN', '0x10'])(
    '%j is not a number',
    (text) => expect(parseNumericAnswer(text)).toBeNull(),
  );
});

describe('autoGrade', () => {
  it('compares numerically: comma or dot, trailing zeros, spaces', () => {
    expect(autoGrade('3,50', '3.5')).toBe('1');
    expect(autoGrade(' 385 ', '385')).toBe('1');
    expect(autoGrade('1 000', '1000')).toBe('1');
    expect(autoGrade('-2', '-2,0')).toBe('1');
    expect(autoGrade('0', '-0')).toBe('1');
  });

  it('gives 0 to a wrong number and to a non-number', () => {
    expect(autoGrade('384', '385')).toBe('0');
    expect(autoGrade('2', '-2')).toBe('0');
    expect(autoGrade('1e3', '1000')).toBe('0');
    expect(autoGrade('1-2', '-1')).toBe('0');
    expect(autoGrade('3.5000001', '3.5')).toBe('0');
  });

  it('leaves an empty answer, or a version without an expected number, untouched', () => {
    expect(autoGrade('', '1')).toBeNull();
    expect(autoGrade('   ', '1')).toBeNull();
    expect(autoGrade('1', null)).toBeNull();
    expect(autoGrade('1', 'beaucoup')).toBeNull();
  });
});
