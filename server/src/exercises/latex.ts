import { subjectFileName } from '@olympe/contract';
import { MATH_COMMANDS, MATH_ENVIRONMENTS, MATH_SYMBOLS } from './latex-allow-list.js';

/**
 * The subject of a chapter as a LaTeX document (docs/product.md#spec-2 /exos/{id}, §9 "LaTeX subject export").
 * Statements are Markdown with $…$ and $$…$$ (the same text MathText renders): math passes
 * through, everything else is escaped. pdflatex needs only Debian's texlive-latex-base and lmodern;
 * lualatex also needs texlive-luatex and texlive-latex-recommended (fontspec).
 */

export interface LatexChapter {
  title: string;
  headerStudents: string;
}

export interface LatexExercise {
  title: string;
  statementVersions: readonly { content: string }[];
}

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

// Printable with utf8 input and T1 fonts: Latin-1, Latin Extended-A, usual French punctuation.
const TEXT_SAFE = /[\u0020-\u007e\u00a0-\u017f\u2018\u2019\u201a\u201c\u201d\u201e\u2013\u2014\u2026\u2022\u20ac\u2039\u203a\u0152\u0153\n\t]/;
// Inside math only ASCII goes through; letters like é are wrapped in \text{}.
const MATH_TEXT_SAFE = /[\u00a0-\u017f]/;

/** Escapes plain text for LaTeX: the ten specials (SPEC issue: & % $ # _ { } ~ ^ \) and unprintable characters. */
export function escapeLatex(text: string): string {
  return escapeChars(text, false);
}

/** Internal markers (formula slots, literal dollars) survive when `keepMarkers` is set. */
function escapeChars(text: string, keepMarkers: boolean): string {
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

/** **bold**, *italic* and `code` of one run of text, escaped. */
function inlineMarkdown(text: string): string {
  const parts = text.split(/(\*\*[^*\n]+\*\*|\*[^*\s][^*\n]*\*|`[^`\n]+`)/g);
  return parts
    .map((part, idx) => {
      if (idx % 2 === 0) return escapeText(part);
      if (part.startsWith('**')) return `\\textbf{${escapeText(part.slice(2, -2))}}`;
      if (part.startsWith('`')) return `\\texttt{${escapeText(part.slice(1, -1))}}`;
      return `\\emph{${escapeText(part.slice(1, -1))}}`;
    })
    .join('');
}

/** Escapes text, turning Markdown backslash escapes (\*, \_, \#...) into their literal character. */
function escapeText(text: string): string {
  return escapeChars(text.replace(/\\([!-/:-@[-`{-~])/g, (_m, c: string) => (c === '\\' ? '\u0002' : c)), true)
    .replace(/\u0001/g, '\\$')
    .replace(/\u0002/g, '\\textbackslash{}');
}

const MATH_MARK = (n: number) => `\u0000${n}\u0000`;

/** Markdown with math to LaTeX: paragraphs, headings, bullet and numbered lists, emphasis, formulas. */
export function markdownToLatex(md: string): string {
  const formulas: string[] = [];
  // The three internal markers (formula slots, literal dollar and backslash) never come from the author.
  const source = splitMath(md.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0002]/g, ''))
    .map((t) => {
      if (t.kind === 'text') return t.value;
      const body = sanitizeMath(t.value);
      formulas.push(t.kind === 'display' ? `\\[ ${body} \\]` : `$${body}$`);
      return MATH_MARK(formulas.length - 1);
    })
    .join('');

  const out: string[] = [];
  let list: 'itemize' | 'enumerate' | null = null;
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length) out.push(paragraph.join('\n'), '');
    paragraph = [];
  };
  const endList = () => {
    if (list) out.push(`\\end{${list}}`, '');
    list = null;
  };
  for (const raw of source.split('\n')) {
    const line = raw.trimEnd();
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    if (line.trim() === '') {
      endParagraph();
      endList();
    } else if (bullet || numbered) {
      endParagraph();
      const kind = bullet ? 'itemize' : 'enumerate';
      if (list !== kind) {
        endList();
        out.push(`\\begin{${kind}}`);
        list = kind;
      }
      out.push(`  \\item ${inlineMarkdown((bullet ?? numbered)![1])}`);
    } else if (heading) {
      endParagraph();
      endList();
      out.push(`\\medskip\\noindent\\textbf{${inlineMarkdown(heading[1])}}\\par`, '');
    } else if (list) {
      out.push(`    ${inlineMarkdown(line.trim())}`);
    } else {
      paragraph.push(inlineMarkdown(line));
    }
  }
  endParagraph();
  endList();
  return out
    .join('\n')
    .replace(/\u0000(\d+)\u0000/g, (_m, n: string) => formulas[Number(n)])
    .trim();
}

/**
 * Compiles with pdflatex (utf8 input, T1 fonts, Latin Modern) and with lualatex or xelatex (fontspec,
 * Latin Modern in OpenType): under LuaTeX the T1 set-up prints « » and ’ as other letters, so each
 * engine gets its own fonts (decision 55). Then the macros KaTeX knows and LaTeX lacks, so that a
 * statement that renders on the web compiles here.
 */
const PREAMBLE = String.raw`% Compile with pdflatex, lualatex or xelatex, in a folder of its own:
%   openin_any=p openout_any=p pdflatex -no-shell-escape -interaction=nonstopmode sujet.tex
%   openin_any=p openout_any=p lualatex -no-shell-escape -interaction=nonstopmode sujet.tex
% openin_any and openout_any at p: no absolute path, no ../, no dot file is read or written; -no-shell-escape:
% no \write18. The formulas keep only the commands KaTeX draws, so nothing here reads or writes another file
% (decision 137). Lua code, under lualatex, is bound by neither variable: a copy edited by hand or received
% from elsewhere is safer compiled with pdflatex.
\documentclass[11pt,a4paper]{article}
\usepackage{iftex}
\ifPDFTeX
  \usepackage[utf8]{inputenc}
  \usepackage[T1]{fontenc}
  \usepackage{lmodern}
\else
  \usepackage{fontspec}
\fi
\usepackage{amsmath,amssymb}
\usepackage{color}
\usepackage[margin=2.2cm]{geometry}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.6em}
\pagestyle{plain}
% Macros KaTeX knows and LaTeX does not.
\providecommand{\R}{\mathbb{R}}
\providecommand{\N}{\mathbb{N}}
\providecommand{\Z}{\mathbb{Z}}
\providecommand{\Q}{\mathbb{Q}}
\providecommand{\C}{\mathbb{C}}
\providecommand{\Reals}{\mathbb{R}}
\providecommand{\reals}{\mathbb{R}}
\providecommand{\natnums}{\mathbb{N}}
\providecommand{\Complex}{\mathbb{C}}
\providecommand{\cnums}{\mathbb{C}}
\providecommand{\degree}{{^\circ}}
\providecommand{\gt}{>}
\providecommand{\lt}{<}
\providecommand{\empty}{\emptyset}
\providecommand{\infin}{\infty}
\providecommand{\isin}{\in}
\providecommand{\bold}{\mathbf}
\providecommand{\Bbb}{\mathbb}
\providecommand{\bm}{\boldsymbol}
\providecommand{\mathscr}{\mathcal}
\providecommand{\rarr}{\rightarrow}
\providecommand{\larr}{\leftarrow}
\providecommand{\lrarr}{\leftrightarrow}
\providecommand{\Rarr}{\Rightarrow}
\providecommand{\Larr}{\Leftarrow}
\providecommand{\Lrarr}{\Leftrightarrow}
\providecommand{\rArr}{\Rightarrow}
\providecommand{\lArr}{\Leftarrow}
\providecommand{\hArr}{\Leftrightarrow}
\providecommand{\Harr}{\Leftrightarrow}
\providecommand{\llbracket}{\mathopen{[\mkern-3mu[}}
\providecommand{\rrbracket}{\mathclose{]\mkern-3mu]}}
\providecommand{\tg}{\operatorname{tg}}
\providecommand{\cotg}{\operatorname{cotg}}
\providecommand{\ctg}{\operatorname{ctg}}
\providecommand{\arctg}{\operatorname{arctg}}
\providecommand{\cosec}{\operatorname{cosec}}
\providecommand{\sh}{\operatorname{sh}}
\providecommand{\ch}{\operatorname{ch}}
\providecommand{\argmax}{\operatorname*{arg\,max}}
\providecommand{\argmin}{\operatorname*{arg\,min}}
\providecommand{\overparen}[1]{\overset{\frown}{#1}}
\providecommand{\cancel}[1]{#1}
`;

/** The whole subject: title, pupils' instructions, then each exercise and, when several, each version. */
export function buildChapterLatex(chapter: LatexChapter, exercises: readonly LatexExercise[]): string {
  const body: string[] = [];
  body.push(`\\begin{center}\n{\\LARGE\\bfseries ${escapeLatex(chapter.title)}}\n\\end{center}`, '');
  if (chapter.headerStudents.trim()) {
    body.push('\\section*{Instructions générales}', markdownToLatex(chapter.headerStudents), '');
  }
  exercises.forEach((exercise, i) => {
    body.push(`\\section*{Exercice ${i + 1} : ${escapeLatex(exercise.title)}}`);
    const versions = exercise.statementVersions;
    if (versions.length === 1) body.push(markdownToLatex(versions[0].content), '');
    else {
      versions.forEach((v, k) => {
        body.push(`\\subsection*{Version ${k + 1}}`, markdownToLatex(v.content), '');
      });
    }
  });
  // No two carets side by side anywhere: ^^5c is a backslash to TeX, ^^75 a u (decision 137).
  const text = body.join('\n').replace(/\^{2,}/g, '^');
  return `${PREAMBLE}\\begin{document}\n\n${text}\n\\end{document}\n`;
}

/** docs/product.md#spec-9: the subject is named after the chapter title (shared with the web's download). */
export const latexFileName = subjectFileName;
