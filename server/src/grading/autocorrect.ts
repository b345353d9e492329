/**
 * DESIGN §3 Auto-correction: the pupil's latest answer against their version's expected answer,
 * compared as numbers. Comma or dot as the decimal mark; spaces (around, or grouping thousands as
 * in "1 000", including the no-break spaces French keyboards produce) are ignored. Exponents
 * ("1e3"), fractions and anything else are not numbers: such an answer is wrong.
 */
export function parseNumericAnswer(text: string): number | null {
  const t = text.replace(/[\s\u00a0\u202f]+/g, '').replace(',', '.');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** '1' correct, '0' wrong, null when there is nothing to grade (empty answer, or no expected answer). */
export function autoGrade(answer: string, expected: string | null): '1' | '0' | null {
  if (answer.trim() === '') return null;
  const want = expected === null ? null : parseNumericAnswer(expected);
  if (want === null) return null;
  const got = parseNumericAnswer(answer);
  return got !== null && got === want ? '1' : '0';
}
