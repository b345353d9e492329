import { describe, expect, it } from 'vitest';
import { formatExactNumber, numericAnswerError, parseFrenchNumber, sameNumber } from './numeric.js';

const FRACTIONS = { allowFraction: true };

describe('parseFrenchNumber accepts what a French pupil writes', () => {
  it.each([
    ['0,5', '0,5'],
    ['0.50', '0,5'],
    ['.5', '0,5'],
    [',5', '0,5'],
    ['5,', '5'],
    ['42', '42'],
    ['007', '7'],
    ['-3', '-3'],
    ['\u22123', '-3'],
    ['+3', '3'],
    ['- 3', '-3'],
    ['-0', '0'],
    ['-0,0', '0'],
    ['  7 ', '7'],
    ['1 000', '1000'],
    ['1\u00a0000', '1000'],
    ['1\u202f000', '1000'],
    ['1 000 000,5', '1000000,5'],
    ['12 345,678 9', '12345,6789'],
    ['3,141 592', '3,141592'],
    ['-1 000,25', '-1000,25'],
    ['1000000', '1000000'],
    ['1'.repeat(50), '1'.repeat(50)],
    ['0,125', '0,125'],
    ['0,1', '0,1'],
    ['1/2', '0,5'],
    ['-1/2', '-0,5'],
    ['\u22121/2', '-0,5'],
    ['2/4', '0,5'],
    ['1 / 3', '1/3'],
    ['-2/6', '-1/3'],
    ['0/7', '0'],
    ['1 000/8', '125'],
    ['7/1', '7'],
  ])('%j is %s', (text, canonical) => {
    const parsed = parseFrenchNumber(text, FRACTIONS);
    expect(parsed).toMatchObject({ ok: true, canonical });
  });

  it('keeps values exact and reduced', () => {
    expect(parseFrenchNumber('0,50')).toEqual({ ok: true, value: { num: 1n, den: 2n }, canonical: '0,5' });
    expect(parseFrenchNumber('-6/4', FRACTIONS)).toEqual({ ok: true, value: { num: -3n, den: 2n }, canonical: '-1,5' });
    const big = parseFrenchNumber('123456789012345678901234567890,000000000000000001');
    expect(big.ok && big.value).toEqual({ num: 123456789012345678901234567890000000000000000001n, den: 10n ** 18n });
  });
});

describe('parseFrenchNumber refuses, with a reason the pupil can act on', () => {
  it.each([
    ['', /vide/],
    ['   ', /vide/],
    ['1e3', /«\se\s»/],
    ['1E3', /«\se\s»/],
    ['2,5e-3', /«\se\s»/],
    ['--1', /un seul signe/],
    ['+-1', /un seul signe/],
    ['1-2', /un seul signe/],
    ['1,2,3', /un seul séparateur décimal/],
    ['1.2.3', /un seul séparateur décimal/],
    ['1.000,5', /un seul séparateur décimal/],
    ['1,000.5', /un seul séparateur décimal/],
    ['-', /il manque les chiffres/],
    [',', /il manque les chiffres/],
    ['1 2', /groupes de trois chiffres/],
    ['10 00', /groupes de trois chiffres/],
    ['1000 000', /groupes de trois chiffres/],
    ['1/', /dénominateur manque/],
    ['/2', /numérateur manque/],
    ['1/0', /diviser par zéro/],
    ['1/0,0', /deux nombres entiers/],
    ['1/-2', /sans signe/],
    ['1,5/2', /deux nombres entiers/],
    ['1/2/3', /une seule barre/],
    ['\u0663', /chiffres 0 à 9/],
    ['\u06f5', /chiffres 0 à 9/],
    ['\uff11\uff12', /chiffres 0 à 9/],
    ['abc', /seuls les chiffres/],
    ['douze', /seuls les chiffres/],
    ['12a', /seuls les chiffres/],
    ['\u221e', /seuls les chiffres/],
    ['Infinity', /seuls les chiffres/],
    ['NaN', /seuls les chiffres/],
    ['0x10', /seuls les chiffres/],
    ['½', /seuls les chiffres/],
    ['3²', /chiffres 0 à 9|seuls les chiffres/],
    ['1'.repeat(51), /trop longue/],
  ])('%j: %s', (text, reason) => {
    const parsed = parseFrenchNumber(text, FRACTIONS);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('refuses a fraction unless the caller allows it', () => {
    expect(parseFrenchNumber('1/2')).toEqual({ ok: false, reason: expect.stringMatching(/fractions ne sont pas acceptées/) });
    expect(parseFrenchNumber('1/2', FRACTIONS).ok).toBe(true);
  });
});

describe('sameNumber compares exact values', () => {
  const value = (text: string) => {
    const parsed = parseFrenchNumber(text, FRACTIONS);
    if (!parsed.ok) throw new Error(`${text}: ${parsed.reason}`);
    return parsed.value;
  };

  it.each(['0,5', '0.50', '.5', ',5', '1/2', '2/4', '0,500 0'])('%j equals 0,5', (text) =>
    expect(sameNumber(value(text), value('0,5'))).toBe(true),
  );

  it.each([
    ['-1/2', '-0,5', true],
    ['−3', '-3', true],
    ['1 000', '1000', true],
    ['0', '-0', true],
    ['0,1', '1/10', true],
    ['1/3', '0,333333', false],
    ['0,5', '-0,5', false],
    ['3,5000001', '3,5', false],
    ['1000', '100', false],
  ])('%j vs %j: %s', (a, b, same) => expect(sameNumber(value(a), value(b))).toBe(same));

  it('writes one canonical text per value', () => {
    expect(formatExactNumber({ num: -1n, den: 8n })).toBe('-0,125');
    expect(formatExactNumber({ num: 2n, den: 3n })).toBe('2/3');
  });
});

describe('numericAnswerError', () => {
  it('lets a number or an empty value (a cleared answer) be saved', () => {
    for (const text of ['', '  ', '0,5', '-3', '1 000', '1/2']) expect(numericAnswerError(text)).toBeNull();
  });

  it('says why anything else is not saved', () => {
    expect(numericAnswerError('abc')).toBe(
      'Réponse non reconnue : seuls les chiffres, la virgule, le signe moins et la barre de fraction / sont acceptés.',
    );
    expect(numericAnswerError('1/0')).toBe('Réponse non reconnue : on ne peut pas diviser par zéro.');
  });
});

describe('numericAnswerError’s fast path', () => {
  it('gives the full parser’s verdict on plain numbers of every shape and length', () => {
    const samples: string[] = [];
    for (const sign of ['', '-']) {
      for (const whole of ['0', '7', '42', '1000', '0012', '9'.repeat(45), '9'.repeat(48), '9'.repeat(49)]) {
        for (const tail of ['', '.', ',', '.5', ',25', '.000', ',1234567']) samples.push(`${sign}${whole}${tail}`);
      }
    }
    for (const text of samples) {
      const full = parseFrenchNumber(text, { allowFraction: true });
      expect(numericAnswerError(text) === null, text).toBe(full.ok);
    }
  });
});
