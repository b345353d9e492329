/** Plain text for LaTeX: the specials escaped, the characters the T1 + utf8 set-up cannot print replaced. */

const TEXT_ESCAPES: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/** Characters typed in text that the T1 + utf8 set-up cannot print, given a printable form. */
const TEXT_UNICODE: Record<string, string> = {
  '\u2212': '-',
  '\u00d7': '$\\times$',
  '\u00f7': '$\\div$',
  '\u2264': '$\\leq$',
  '\u2265': '$\\geq$',
  '\u2260': '$\\neq$',
  '\u2248': '$\\approx$',
  '\u221e': '$\\infty$',
  '\u03c0': '$\\pi$',
  '\u221a': '$\\surd$',
  '\u2192': '$\\rightarrow$',
  '\u2208': '$\\in$',
  '\u2200': '$\\forall$',
  '\u2203': '$\\exists$',
  // The narrow no-break space French puts before ; : ! ? and inside « », and the thin space.
  '\u202f': '\\,',
  '\u2009': '\\,',
  '\u2011': '-',
  // Superscript letters of French ordinals (3ᵉ, 1ʳᵉ, 2ⁿᵈ, nᵒ).
  '\u1d49': '\\textsuperscript{e}',
  '\u02b3': '\\textsuperscript{r}',
  '\u207f': '\\textsuperscript{n}',
  '\u1d48': '\\textsuperscript{d}',
  '\u1d52': '\\textsuperscript{o}',
  '\u02e2': '\\textsuperscript{s}',
  '\u211d': '$\\mathbb{R}$',
  '\u2115': '$\\mathbb{N}$',
  '\u2124': '$\\mathbb{Z}$',
  '\u211a': '$\\mathbb{Q}$',
  '\u2102': '$\\mathbb{C}$',
};

// Printable with utf8 input and T1 fonts: Latin-1, Latin Extended-A, usual French punctuation.
const TEXT_SAFE =
  /[\u0020-\u007e\u00a0-\u017f\u2018\u2019\u201a\u201c\u201d\u201e\u2013\u2014\u2026\u2022\u20ac\u2039\u203a\u0152\u0153\n\t]/;

/** Escapes plain text for LaTeX: the ten specials (SPEC issue: & % $ # _ { } ~ ^ \) and unprintable characters. */
export function escapeLatex(text: string): string {
  return escapeChars(text, false);
}

/** Internal markers (formula slots, literal dollars) survive when `keepMarkers` is set. */
export function escapeChars(text: string, keepMarkers: boolean): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (ch in TEXT_ESCAPES) out += TEXT_ESCAPES[ch];
    else if (ch in TEXT_UNICODE) out += TEXT_UNICODE[ch];
    else if (ch === '\r') continue;
    else if (keepMarkers && ch <= '\u0002') out += ch;
    else out += TEXT_SAFE.test(ch) ? ch : '?';
  }
  return out;
}
