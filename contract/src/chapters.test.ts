import { describe, expect, it } from 'vitest';
import { accessGroupSchema, exerciseCreateSchema, exercisePatchSchema, parseDecimal } from './chapters.js';

describe('parseDecimal', () => {
  it('reads comma or dot decimals with surrounding spaces', () => {
    expect(parseDecimal('3,5')).toBe(3.5);
    expect(parseDecimal(' -0.25 ')).toBe(-0.25);
    expect(parseDecimal('+12')).toBe(12);
    expect(parseDecimal(',5')).toBe(0.5);
    expect(parseDecimal('7.')).toBe(7);
  });
  it('refuses anything else', () => {
    for (const s of ['', ' ', 'douze', '1e3', '1,2,3', '1 000', '0x10', 'Infinity', '1/2', '--1']) expect(parseDecimal(s)).toBeNull();
  });
});

describe('accessGroupSchema', () => {
  it('fills the defaults of a new group', () => {
    expect(accessGroupSchema.parse({})).toEqual({
      name: 'all',
      authorizedGenders: [],
      authorizedGrades: [],
      birthDateMin: null,
      birthDateMax: null,
      timeDuration: null,
      accessStart: null,
      accessEnd: null,
    });
  });
  it('treats empty strings as missing values', () => {
    const g = accessGroupSchema.parse({ birthDateMin: '', accessStart: ' ' });
    expect(g.birthDateMin).toBeNull();
    expect(g.accessStart).toBeNull();
  });
  it('checks duration, order of dates and bounds', () => {
    expect(accessGroupSchema.safeParse({ timeDuration: -1 }).success).toBe(false);
    expect(accessGroupSchema.safeParse({ timeDuration: 0 }).success).toBe(true);
    expect(accessGroupSchema.safeParse({ accessStart: '2026-01-02T00:00:00Z', accessEnd: '2026-01-01T00:00:00Z' }).success).toBe(false);
    expect(accessGroupSchema.safeParse({ birthDateMin: '2012-01-01', birthDateMax: '2011-01-01' }).success).toBe(false);
  });
});

describe('exercise schemas', () => {
  const chapter = '00000000-0000-4000-8000-000000000abc';
  it('gives a new exercise the docs/product.md#spec-9 defaults', () => {
    expect(exerciseCreateSchema.parse({ chapter })).toEqual({
      chapter,
      title: 'Nouvel exercice',
      answerFormat: 'numeric',
      statementVersions: [{ content: 'Nouvelle version', answer: null }],
    });
  });
  it('requires numeric expected answers to be numbers, only for numeric exercises', () => {
    const versions = [{ content: 'x', answer: 'abc' }];
    expect(exerciseCreateSchema.safeParse({ chapter, statementVersions: versions }).success).toBe(false);
    expect(exerciseCreateSchema.safeParse({ chapter, answerFormat: 'pdf', statementVersions: versions }).success).toBe(true);
    expect(exercisePatchSchema.safeParse({ answerFormat: 'numeric', statementVersions: [{ content: 'x', answer: '2,5' }] }).success).toBe(
      true,
    );
  });
});
