/**
 * The one French typography helper (decision 101). Every French text the app shows is written in its
 * typographic form: in the source itself (the literals of web/src and server/src, checked by
 * typography.guard.test.ts) and, for what is computed, through these functions.
 *
 * - apostrophe: ’ (U+2019), never ' between letters;
 * - before « ; ? ! » and inside « guillemets »: a narrow no-break space (U+202F, « espace fine insécable »);
 * - before « : »: a no-break space (U+00A0, « espace insécable » of a word's width), as the Lexique des règles
 *   typographiques de l’Imprimerie nationale asks;
 * - times « 20 h 35 » (no-break spaces around the h), numbers « 1 234,5 » (U+202F between thousands, as
 *   Intl.NumberFormat('fr-FR') writes them).
 */

/** U+00A0, before a colon and around the h of a time. */
export const NBSP = '\u00a0';
/** U+202F, before ; ? ! and inside « ». */
export const NNBSP = '\u202f';

// A straight apostrophe between two letters (l'épreuve, aujourd'hui), not a quote around a word.
const APOSTROPHE = /(?<=\p{L})'(?=\p{L})/gu;
// Spaces (plain or not) before ; ? ! or a colon, or none after a word that ends a clause (« Attention! »).
const SPACE = '[ \\u00a0\\u202f\\u2009]';
const BEFORE_THIN = new RegExp(`(?<=\\S)${SPACE}+([;?!])|(?<=[\\p{L}\\p{N})»])([;?!])(?=\\s|$)`, 'gu');
const BEFORE_COLON = new RegExp(`(?<=\\S)${SPACE}+:|(?<=[\\p{L}\\p{N})»]):(?=\\s|$)`, 'gu');
const OPENING = new RegExp(`«${SPACE}*`, 'gu');
const CLOSING = new RegExp(`${SPACE}*»`, 'gu');
// What is left as written: URLs, e-mail addresses, times and ratios (20:35, 1:2), `code`, $math$, and a mark
// glued to what follows it (a:b, ?token=, !important).
const UNTOUCHED = /`[^`]*`|\$[^$]*\$|\b[a-z][a-z0-9+.-]*:\/\/\S*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\d+:\d+|[?!;:](?=[\p{L}\p{N}_/?=&])/giu;

/** Each rule, applied outside the untouched stretches of the text as it stands before the rule. */
const RULES: Array<[RegExp, (match: string, ...groups: Array<string | undefined>) => string]> = [
  [APOSTROPHE, () => '’'],
  [BEFORE_THIN, (_match, spaced, glued) => `${NNBSP}${spaced ?? glued}`],
  [BEFORE_COLON, () => `${NBSP}:`],
  [OPENING, () => `«${NNBSP}`],
  [CLOSING, () => `${NNBSP}»`],
];

/**
 * French text in its typographic form: ’ between letters, a no-break space before « : ; ? ! » (« Correction : Tour
 * 1 », « Pourquoi ? ») and inside « ». Idempotent. Leaves alone what is not prose: URLs, e-mail addresses, times
 * written 20:35, `code`, $math$, and a mark glued to what follows it (« a:b », « ?token= »).
 */
export function frenchText(text: string): string {
  let out = text;
  for (const [rule, replacement] of RULES) {
    const kept = [...out.matchAll(UNTOUCHED)].map((m) => [m.index, m.index + m[0].length]);
    out = out.replace(rule, (match: string, ...rest: unknown[]) => {
      const groups = rest.slice(0, -2) as Array<string | undefined>;
      const offset = rest.at(-2) as number;
      const end = offset + match.length;
      return kept.some(([from, to]) => offset < to && end > from) ? match : replacement(match, ...groups);
    });
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A time of day as French typography writes it: « 20 h 35 », « 9 h 05 » (no-break spaces, no leading zero for the
 * hour). Takes a Date (its local time, as the browser shows it) or a wall-clock « HH:mm » text.
 */
export function frenchTime(time: Date | string): string {
  if (typeof time === 'string') {
    const m = /^(\d{1,2}):(\d{2})/.exec(time);
    return m ? frenchHours(Number(m[1]), Number(m[2])) : time;
  }
  return frenchHours(time.getHours(), time.getMinutes());
}

/** « 1 h 05 »: hours and minutes as French writes them, a clock time or a length (no-break spaces around the h). */
export function frenchHours(hours: number, minutes: number): string {
  return `${hours}${NBSP}h${NBSP}${pad(minutes)}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * The French number formatter for these options, made at its first use and kept: a page's first `Intl` object
 * loads the browser's locale data, a long task on a phone that a screen should pay only if it shows a number
 * (decision 121).
 */
export function frenchNumberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat('fr-FR', options);
    formatters.set(key, format);
  }
  return format;
}

/**
 * A number as a French reader writes it: a decimal comma, thousands grouped by a narrow no-break space
 * (« 1 234,5 »). `digits` fixes the number of decimals (« 0,50 » for 2); without it, up to 2 and no trailing zero.
 */
export function frenchNumber(n: number, digits?: number): string {
  const format = frenchNumberFormat(
    digits === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: digits, maximumFractionDigits: digits },
  );
  // U+2212 minus is Intl's; a hyphen-minus reads the same and stays searchable.
  return format.format(n).replace(/\u2212/g, '-');
}
