import { MATH_COMMANDS, MATH_ENVIRONMENTS, MATH_SYMBOLS } from './latex-allow-list.js';

/** Formulas for LaTeX (decision 137): split from the text, made safe, display environments that nest. */

/** The same symbols typed inside a formula. */
const MATH_UNICODE: Record<string, string> = {
  '\u2212': '-',
  '\u00d7': '\\times ',
  '\u00f7': '\\div ',
  '\u00b7': '\\cdot ',
  '\u2264': '\\leq ',
  '\u2265': '\\geq ',
  '\u2260': '\\neq ',
  '\u2248': '\\approx ',
  '\u221e': '\\infty ',
  '\u03c0': '\\pi ',
  '\u221a': '\\sqrt ',
  '\u2192': '\\rightarrow ',
  '\u00a0': '~',
  '\u202f': '\\,',
  '\u2009': '\\,',
  '\u00b0': '^{\\circ}',
  '\u2026': '\\dots ',
  '\u2208': '\\in ',
  '\u2209': '\\notin ',
  '\u2282': '\\subset ',
  '\u222a': '\\cup ',
  '\u2229': '\\cap ',
  '\u2205': '\\emptyset ',
  '\u2200': '\\forall ',
  '\u2203': '\\exists ',
  '\u2211': '\\sum ',
  '\u21d2': '\\Rightarrow ',
  '\u21d4': '\\Leftrightarrow ',
  '\u211d': '\\mathbb{R}',
  '\u2115': '\\mathbb{N}',
  '\u2124': '\\mathbb{Z}',
  '\u211a': '\\mathbb{Q}',
  '\u2102': '\\mathbb{C}',
};

// Inside math only ASCII goes through; letters like é are wrapped in \text{}.
const MATH_TEXT_SAFE = /[\u00a0-\u017f]/;

/**
 * Display environments KaTeX accepts between $$…$$ but LaTeX refuses inside \[ \] (« Erroneous nesting
 * of equation structures »), with the inner form that means the same there. KaTeX never numbers
 * them, so neither does the export.
 */
const DISPLAY_ENVIRONMENTS: Record<string, string> = {
  align: 'aligned',
  'align*': 'aligned',
  flalign: 'aligned',
  'flalign*': 'aligned',
  eqnarray: 'aligned',
  'eqnarray*': 'aligned',
  gather: 'gathered',
  'gather*': 'gathered',
  multline: 'gathered',
  'multline*': 'gathered',
  alignat: 'alignedat',
  'alignat*': 'alignedat',
  equation: '',
  'equation*': '',
  split: 'aligned',
};

/** align, gather, equation… typed in a formula, turned into the forms that nest in \[ \] and $…$. */
export function nestableEnvironments(math: string): string {
  return math
    .replace(/\\(begin|end)\{([a-z]+\*?)\}/g, (whole, edge: string, name: string) => {
      if (!(name in DISPLAY_ENVIRONMENTS)) return whole;
      const inner = DISPLAY_ENVIRONMENTS[name];
      return inner ? `\\${edge}{${inner}}` : '';
    })
    .replace(/\\(?:label|tag\*?)\{[^{}]*\}|\\(?:nonumber|notag)(?![a-zA-Z])/g, '');
}

/** A control word or symbol that is not obeyed, printed as typed (in math and in \text alike). */
const shown = (name: string) => `\\mbox{\\textbackslash{}${name}}`;

const CONTROL_WORD = /[a-zA-Z]+/y;
const ENVIRONMENT = /\s*\{([a-zA-Z]+\*?)\}/y;

/**
 * A formula as typed between dollars, made safe (decision 137): only the commands, environments and control
 * symbols of latex-allow-list.ts are obeyed, every other backslash is printed; braces balanced; no %, #, $ or
 * control character; no stray unicode. `^^` (TeX's character-code notation, `^^5c` is a backslash) is taken
 * away from the whole document by buildChapterLatex.
 */
export function sanitizeMath(math: string): string {
  const body = nestableEnvironments(math);
  let out = '';
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') {
      CONTROL_WORD.lastIndex = i + 1;
      const word = CONTROL_WORD.exec(body)?.[0];
      if (word) {
        i += word.length;
        ENVIRONMENT.lastIndex = i + 1;
        const environment = word === 'begin' || word === 'end' ? ENVIRONMENT.exec(body) : null;
        if (environment && MATH_ENVIRONMENTS.has(environment[1])) {
          out += `\\${word}{${environment[1]}}`;
          i += environment[0].length;
        } else out += MATH_COMMANDS.has(word) ? `\\${word}` : shown(word);
        continue;
      }
      const next = body[i + 1];
      if (next !== undefined && MATH_SYMBOLS.has(next)) {
        out += ch + body[++i];
        continue;
      }
      // A trailing backslash would escape the closing delimiter: dropped. Before anything else, shown.
      if (next !== undefined) out += shown('');
      continue;
    }
    if (ch === '{') depth++;
    if (ch === '}') {
      if (depth === 0) {
        out += '\\}';
        continue;
      }
      depth--;
    }
    // An unescaped % would comment out the closing delimiter; # is a macro parameter; $ would end the formula.
    if (ch === '%' || ch === '#' || ch === '$') out += `\\${ch}`;
    else if (ch in MATH_UNICODE) out += MATH_UNICODE[ch];
    else if (ch === '\r' || ch === '\n' || ch === '\t') out += ' ';
    else if (ch >= ' ' && ch < '\u007f') out += ch;
    else if (MATH_TEXT_SAFE.test(ch)) out += `\\text{${ch}}`;
    else out += '?';
  }
  return out + '}'.repeat(depth);
}

type Token = { kind: 'text'; value: string } | { kind: 'inline' | 'display'; value: string };

/** Splits Markdown into text and formulas ($$…$$ display, $…$ inline, \$ a literal dollar). */
export function splitMath(md: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let i = 0;
  const flush = () => {
    if (text) tokens.push({ kind: 'text', value: text });
    text = '';
  };
  while (i < md.length) {
    if (md[i] === '\\' && md[i + 1] === '$') {
      text += '\u0001'; // a literal dollar, escaped later
      i += 2;
      continue;
    }
    if (md.startsWith('$$', i)) {
      const end = md.indexOf('$$', i + 2);
      if (end !== -1) {
        flush();
        tokens.push({ kind: 'display', value: md.slice(i + 2, end).trim() });
        i = end + 2;
        continue;
      }
    }
    if (md[i] === '$') {
      const end = findInlineEnd(md, i + 1);
      if (end !== -1) {
        flush();
        tokens.push({ kind: 'inline', value: md.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    text += md[i++];
  }
  flush();
  return tokens;
}

function findInlineEnd(md: string, from: number): number {
  for (let j = from; j < md.length; j++) {
    if (md[j] === '\\') {
      j++;
      continue;
    }
    if (md[j] === '\n' && md[j + 1] === '\n') return -1;
    if (md[j] === '$') return j > from ? j : -1;
  }
  return -1;
}
