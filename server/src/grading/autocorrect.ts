import { parseNumericAnswerText, sameNumber } from '@olympe/contract';

/**
 * docs/product.md#design-3 Auto-correction: the pupil's latest answer against their version's expected answer,
 * compared as exact numbers with the parser the answer field and the save route use (contract
 * numeric.ts): comma or dot, a leading minus (`-` or `−`), spaces between thousands, `a/b`.
 * Returns the value's canonical text (`0,5`, `-3`, `1/3`), one per value, or null when the text is
 * not a number (such an answer is wrong).
 */
export function parseNumericAnswer(text: string): string | null {
  const parsed = parseNumericAnswerText(text);
  return parsed.ok ? parsed.canonical : null;
}

/** '1' correct, '0' wrong, null when there is nothing to grade (empty answer, or no expected answer). */
export function autoGrade(answer: string, expected: string | null): '1' | '0' | null {
  if (answer.trim() === '') return null;
  const want = expected === null ? null : parseNumericAnswerText(expected);
  if (!want?.ok) return null;
  const got = parseNumericAnswerText(answer);
  return got.ok && sameNumber(got.value, want.value) ? '1' : '0';
}
