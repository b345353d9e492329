import { describe, expect, it } from 'vitest';
import { autoGrade, parseNumericAnswer } from './autocorrect.js';

describe('parseNumericAnswer', () => {
  it.each([
    ['42', '42'],
    ['3,5', '3,5'],
    ['3.5', '3,5'],
    ['  7 ', '7'],
    ['1 000', '1000'],
    ['1\u202f000,25', '1000,25'],
    ['-12', '-12'],
    ['-0,5', '-0,5'],
    ['\u22120,5', '-0,5'],
    ['+3', '3'],
    ['.5', '0,5'],
    ['5.', '5'],
    ['1/2', '0,5'],
    ['2/6', '1/3'],
  ])('%j is %s', (text, value) => expect(parseNumericAnswer(text)).toBe(value));

  it.each(['', ' ', '1e3', '1E3', 'abc', '1,2,3', '1.2.3', '--1', '1-2', '-', ',', 'Infinity', 'NaN', '0x10', '1/0', '\u0663'])(
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

  it('compares exact values: what the page accepts is graded right', () => {
    expect(autoGrade('0,5', '0,5')).toBe('1');
    expect(autoGrade('1/2', '0,5')).toBe('1');
    expect(autoGrade('.5', '0.5')).toBe('1');
    expect(autoGrade('-1/2', '-0,5')).toBe('1');
    expect(autoGrade('\u22123', '-3')).toBe('1');
    expect(autoGrade('1 000 000', '1000000')).toBe('1');
    expect(autoGrade('100000000000000000001', '100000000000000000000')).toBe('0');
    expect(autoGrade('0,30000000000000004', '0,3')).toBe('0');
    expect(autoGrade('1/3', '0,333333')).toBe('0');
    expect(autoGrade('05', '0,5')).toBe('0');
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
