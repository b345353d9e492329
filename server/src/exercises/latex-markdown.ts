import { escapeChars } from './latex-text.js';
import { sanitizeMath, splitMath } from './latex-math.js';

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
  return escapeChars(
    text.replace(/\\([!-/:-@[-`{-~])/g, (_m, c: string) => (c === '\\' ? '\u0002' : c)),
    true,
  )
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
