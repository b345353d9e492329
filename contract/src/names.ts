/**
 * The characters a person's name may not hold (decision 134): control characters, the bidirectional
 * controls that turn text around (U+202E « RIGHT-TO-LEFT OVERRIDE » and its kin) and the invisible
 * zero-width ones. A name is shown on lists, PDFs and mails: such a character hides or reorders what
 * staff read. Letters of every script, accents, apostrophes, hyphens and spaces stay welcome.
 * Schema-free, so the web's first load and the server's import share it.
 */
const FORBIDDEN_IN_NAME = /[\p{Cc}\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;

export const NAME_FORBIDDEN_CHARACTER_MESSAGE = 'Ce nom contient un caractère invisible ou de contrôle : retirez-le.';

/** True when the name holds a control, bidirectional or zero-width character. */
export function hasForbiddenNameCharacter(name: string): boolean {
  return FORBIDDEN_IN_NAME.test(name);
}
