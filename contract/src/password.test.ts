import { describe, expect, it } from 'vitest';
import { checkPassword, isPasswordValid, PASSWORD_SPECIALS } from './password.js';

describe('password rules (docs/product.md#spec-5)', () => {
  it('requires at least 8 characters (7 fails, 8 passes)', () => {
    expect(checkPassword('Ab1!xyz').length).toBe(false);
    expect(checkPassword('Ab1!xyzw').length).toBe(true);
    expect(isPasswordValid('Ab1!xyz')).toBe(false);
    expect(isPasswordValid('Ab1!xyzw')).toBe(true);
  });

  it('requires a lowercase letter', () => {
    expect(checkPassword('ABCDEFG1!').lower).toBe(false);
    expect(checkPassword('ABCDEFg1!').lower).toBe(true);
  });

  it('requires an uppercase letter', () => {
    expect(checkPassword('abcdefg1!').upper).toBe(false);
    expect(checkPassword('Abcdefg1!').upper).toBe(true);
  });

  it('requires a digit', () => {
    expect(checkPassword('Abcdefgh!').digit).toBe(false);
    expect(checkPassword('Abcdefg9!').digit).toBe(true);
  });

  it('requires one of the listed special characters and only those', () => {
    for (const c of PASSWORD_SPECIALS) expect(checkPassword(`Abcdefg1${c}`).special, c).toBe(true);
    for (const c of ['-', '_', '+', '~', ' ', 'é', '/']) expect(checkPassword(`Abcdefg1${c}`).special, c).toBe(false);
  });

  it('does not count accented letters as ASCII lower/upper', () => {
    expect(checkPassword('ÉÉÉÉÉÉ1!a').upper).toBe(false);
  });
});
