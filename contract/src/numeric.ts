import { NUMERIC_ANSWER_MAX } from './sessions.js';

/**
 * A numeric answer as the pupil means it (docs/decisions.md, « Numeric answers »): the one parser
 * the answer field, the save route and the automatic correction share, so what the page accepts is
 * what is stored and what is graded. Values are exact rationals: `0,1 + 0,2` style float errors
 * cannot make a right answer wrong.
 */
export interface ExactNumber {
  /** Reduced: gcd(|num|, den) = 1, den > 0, zero is 0/1. */
  num: bigint;
  den: bigint;
}

export type NumberParse = { ok: true; value: ExactNumber; canonical: string } | { ok: false; reason: string };

export interface ParseNumberOptions {
  /** `a/b` with two integers; off, a fraction is refused with a reason that says so. */
  allowFraction?: boolean;
}

// Spaces a French keyboard or a copy from a word processor produces between thousands.
const SPACE = '[ \\u00a0\\u202f\\u2009]';
const SIGN = /^([-+\u2212])[ \u00a0\u202f\u2009]?/;
const INTEGER = new RegExp(`^(?:\\d+|\\d{1,3}(?:${SPACE}\\d{3})+)$`);
const DECIMALS = new RegExp(`^(?:\\d*|\\d{3}(?:${SPACE}\\d{3})*(?:${SPACE}\\d{1,3})?)$`);
const SPACES = new RegExp(SPACE, 'g');

const fail = (reason: string): NumberParse => ({ ok: false, reason });

const abs = (n: bigint) => (n < 0n ? -n : n);
function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [abs(a), abs(b)];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function exact(num: bigint, den: bigint): ExactNumber {
  if (num === 0n) return { num: 0n, den: 1n };
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

/** `0,5`, `-3`, `1000`, or `1/3` when the value has no finite decimal writing: one text per value. */
export function formatExactNumber({ num, den }: ExactNumber): string {
  let twos = 0;
  let fives = 0;
  let rest = den;
  while (rest % 2n === 0n) [rest, twos] = [rest / 2n, twos + 1];
  while (rest % 5n === 0n) [rest, fives] = [rest / 5n, fives + 1];
  if (rest !== 1n) return `${num}/${den}`;
  const places = Math.max(twos, fives);
  const scaled = (abs(num) * 10n ** BigInt(places)) / den;
  const digits = scaled.toString().padStart(places + 1, '0');
  const sign = num < 0n ? '-' : '';
  return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -places)},${digits.slice(-places)}`;
}

/** Why a text with no fraction bar is not a decimal number, or its value. */
function parseDecimalPart(text: string, role: 'number' | 'numerator' | 'denominator'): ExactNumber | string {
  let body = text;
  let negative = false;
  const sign = SIGN.exec(body);
  if (sign) {
    if (role === 'denominator') return 'le dénominateur s’écrit sans signe, par exemple -1/2.';
    negative = sign[1] !== '+';
    body = body.slice(sign[0].length);
  }
  if (/[-+\u2212]/.test(body)) return 'un seul signe, placé au début du nombre.';
  const marks = body.match(/[.,]/g) ?? [];
  if (marks.length > 1) return 'un seul séparateur décimal (virgule ou point) ; les milliers se séparent par une espace : 1 000,5.';
  if (marks.length === 1 && role !== 'number') return 'une fraction s’écrit avec deux nombres entiers, par exemple 1/2.';
  const [whole, decimals = ''] = body.split(/[.,]/);
  if (whole === '' && decimals === '')
    return role === 'denominator' ? 'le dénominateur manque, par exemple 1/2.' : 'il manque les chiffres.';
  if ((whole !== '' && !INTEGER.test(whole)) || !DECIMALS.test(decimals)) {
    return 'les espaces ne peuvent séparer que des groupes de trois chiffres, comme dans 1 000 000.';
  }
  const digits = `${whole}${decimals}`.replace(SPACES, '');
  const magnitude = BigInt(digits === '' ? '0' : digits);
  return { num: negative ? -magnitude : magnitude, den: 10n ** BigInt(decimals.replace(SPACES, '').length) };
}

/**
 * Reads a number as a French pupil writes it: digits 0–9, one decimal comma or point (`0,5`,
 * `0.50`, `,5`, `5,`), a leading `-`, `−` or `+`, spaces between thousands (`1 000`, including
 * the no-break spaces of French keyboards), and `a/b` when `allowFraction`. Anything else is
 * refused with a reason the pupil can act on (French, starting in lower case).
 */
export function parseFrenchNumber(text: string, options: ParseNumberOptions = {}): NumberParse {
  const t = text.trim();
  if (t === '') return fail('la réponse est vide.');
  if (t.length > NUMERIC_ANSWER_MAX) return fail(`la réponse est trop longue (${NUMERIC_ANSWER_MAX} caractères au plus).`);
  if (/\p{Nd}/u.test(t.replace(/\d/g, ''))) return fail('seuls les chiffres 0 à 9 du clavier habituel sont acceptés.');
  if (/^[-+\u2212]?[\d.,]+e[-+]?\d/i.test(t)) return fail('pas d’écriture avec « e » : écrivez le nombre en entier, par exemple 1000.');
  if (/[^\d.,\-+\u2212/ \u00a0\u202f\u2009]/.test(t)) {
    return fail('seuls les chiffres, la virgule, le signe moins et la barre de fraction / sont acceptés.');
  }
  const parts = t.split('/');
  if (parts.length > 2) return fail('une seule barre de fraction, par exemple 1/2.');
  if (parts.length === 2 && !options.allowFraction)
    return fail('les fractions ne sont pas acceptées ici : écrivez un nombre décimal, par exemple 0,5.');
  if (parts.length === 1) {
    const value = parseDecimalPart(t, 'number');
    if (typeof value === 'string') return fail(value);
    const reduced = exact(value.num, value.den);
    return { ok: true, value: reduced, canonical: formatExactNumber(reduced) };
  }
  const numerator = parts[0].trim();
  if (numerator === '') return fail('le numérateur manque, par exemple 1/2.');
  const top = parseDecimalPart(numerator, 'numerator');
  if (typeof top === 'string') return fail(top);
  const bottom = parseDecimalPart(parts[1].trim(), 'denominator');
  if (typeof bottom === 'string') return fail(bottom);
  if (bottom.num === 0n) return fail('on ne peut pas diviser par zéro.');
  const reduced = exact(top.num, bottom.num);
  return { ok: true, value: reduced, canonical: formatExactNumber(reduced) };
}

/** Exact equality of two reduced values (no floating point). */
export function sameNumber(a: ExactNumber, b: ExactNumber): boolean {
  return a.num === b.num && a.den === b.den;
}

const PLAIN_NUMBER = /^-?\d+(?:[.,]\d*)?$/;

/** Every numeric exercise takes fractions of integers (docs/decisions.md, « Numeric answers »). */
export const parseNumericAnswerText = (text: string) => parseFrenchNumber(text, { allowFraction: true });

/**
 * What the answer field shows under a value, and the save route's 400: null when the value may be
 * saved (a number, or empty: clearing an answer is always allowed).
 */
export function numericAnswerError(text: string): string | null {
  // The save path's common case (digits, one decimal mark, a leading minus) in one regular expression:
  // the same verdict as the full parser (numeric.test.ts checks it), without its allocations.
  if (text.length <= NUMERIC_ANSWER_MAX && PLAIN_NUMBER.test(text)) return null;
  if (text.trim() === '') return null;
  const parsed = parseNumericAnswerText(text);
  return parsed.ok ? null : `Réponse non reconnue : ${parsed.reason}`;
}
