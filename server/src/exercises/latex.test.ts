import { describe, expect, it } from 'vitest';
import { buildChapterLatex, latexFileName } from './latex.js';
import { markdownToLatex } from './latex-markdown.js';
import { nestableEnvironments, sanitizeMath, splitMath } from './latex-math.js';
import { escapeLatex } from './latex-text.js';

describe('escapeLatex', () => {
  it('escapes the ten special characters', () => {
    expect(escapeLatex('& % $ # _ { } ~ ^ \\')).toBe(
      '\\& \\% \\$ \\# \\_ \\{ \\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}',
    );
  });

  it('keeps accents and French punctuation, replaces what T1 cannot print', () => {
    expect(escapeLatex('Élève « déjà » — 5 € ; l’été… Œuvre')).toBe('Élève « déjà » — 5 € ; l’été… Œuvre');
    expect(escapeLatex('2 × 3 ≤ π 😀')).toBe('2 $\\times$ 3 $\\leq$ $\\pi$ ?');
    expect(escapeLatex('<b>|x|</b>')).toBe('\\textless{}b\\textgreater{}\\textbar{}x\\textbar{}\\textless{}/b\\textgreater{}');
  });

  it('never lets a command through', () => {
    const out = escapeLatex('\\input{/etc/passwd}');
    expect(out).toBe('\\textbackslash{}input\\{/etc/passwd\\}');
  });
});

describe('splitMath', () => {
  it('finds inline and display formulas, and leaves lone or escaped dollars as text', () => {
    expect(splitMath('a $x$ b $$y$$ c')).toEqual([
      { kind: 'text', value: 'a ' },
      { kind: 'inline', value: 'x' },
      { kind: 'text', value: ' b ' },
      { kind: 'display', value: 'y' },
      { kind: 'text', value: ' c' },
    ]);
    expect(splitMath('coûte 5 $ seulement')).toEqual([{ kind: 'text', value: 'coûte 5 $ seulement' }]);
    expect(splitMath('\\$5 et $a\\$b$')[1]).toEqual({ kind: 'inline', value: 'a\\$b' });
    expect(splitMath('$a\n\nb$')).toEqual([{ kind: 'text', value: '$a\n\nb$' }]);
  });
});

describe('sanitizeMath', () => {
  it('keeps ordinary formulas untouched', () => {
    expect(sanitizeMath('\\frac{1}{2} + \\sqrt{x_1^2}')).toBe('\\frac{1}{2} + \\sqrt{x_1^2}');
  });
  it('neutralises file access and definitions, and balances braces', () => {
    expect(sanitizeMath('\\input{a}')).toBe('\\mbox{\\textbackslash{}input}{a}');
    expect(sanitizeMath('\\def\\x{1}')).toBe('\\mbox{\\textbackslash{}def}\\mbox{\\textbackslash{}x}{1}');
    expect(sanitizeMath('{a')).toBe('{a}');
    expect(sanitizeMath('a}')).toBe('a\\}');
    expect(sanitizeMath('50%')).toBe('50\\%');
    expect(sanitizeMath('x \\')).toBe('x ');
  });
  it('obeys only the commands, environments and control symbols of the allow-list (decision 137)', () => {
    const formula =
      '\\frac{1}{2} \\sum_{k=1}^{n} \\mathbb{R} \\text{si } \\left( \\begin{pmatrix} a \\\\ b \\end{pmatrix} \\right) \\, \\{x\\}';
    expect(sanitizeMath(formula)).toBe(formula);
    expect(sanitizeMath('\\begin {cases} 1 \\end{cases}')).toBe('\\begin{cases} 1 \\end{cases}');
    // A command that starts with an allowed one is another command.
    expect(sanitizeMath('\\textbfx \\inputx \\latelua{} \\pdffiledump \\catcode`\\^=7')).toBe(
      '\\mbox{\\textbackslash{}textbfx} \\mbox{\\textbackslash{}inputx} \\mbox{\\textbackslash{}latelua}{} ' +
        '\\mbox{\\textbackslash{}pdffiledump} \\mbox{\\textbackslash{}catcode}`\\mbox{\\textbackslash{}}^=7',
    );
    expect(sanitizeMath('\\begin{filecontents}x\\end{filecontents}')).toBe(
      '\\mbox{\\textbackslash{}begin}{filecontents}x\\mbox{\\textbackslash{}end}{filecontents}',
    );
    expect(sanitizeMath('\\@input a\\$b$c\u0007')).toBe('\\mbox{\\textbackslash{}}@input a\\$b\\$c?');
  });
  it('leaves no two carets side by side in the document, so ^^5c is never a backslash', () => {
    const tex = buildChapterLatex({ title: 'T', headerStudents: '$^^5cinput{x}$ et ^^5c' }, [
      { title: 'U', statementVersions: [{ content: '$\\inp^^75t{x}$ $x^^^^005c$ $\\^^5c$ $y^°$' }] },
    ]);
    const body = tex.slice(tex.indexOf('\\begin{document}'));
    expect(body).not.toContain('^^');
    expect(body).toContain('$^5cinput{x}$ et \\textasciicircum{}\\textasciicircum{}5c');
    expect(body).toContain('$\\mbox{\\textbackslash{}inp}^75t{x}$ $x^005c$ $\\mbox{\\textbackslash{}}^5c$ $y^{\\circ}$');
  });
  it('maps typed symbols to commands', () => {
    expect(sanitizeMath('2×3 ≤ π')).toBe('2\\times 3 \\leq  \\pi ');
    expect(sanitizeMath('é')).toBe('\\text{é}');
  });
});

describe('markdownToLatex', () => {
  it('converts emphasis, lists, headings and formulas, escaping text only', () => {
    const tex = markdownToLatex(
      '# Partie A\n\n**Gras** et *italique* : $a_1 = 50\\%$ pour 50 % des $$\\sum_i x_i$$\n\n- un\n- deux\n\n1. premier\n2. second',
    );
    expect(tex).toContain('\\medskip\\noindent\\textbf{Partie A}\\par');
    expect(tex).toContain('\\textbf{Gras} et \\emph{italique} : $a_1 = 50\\%$ pour 50 \\% des \\[ \\sum_i x_i \\]');
    expect(tex).toContain('\\begin{itemize}\n  \\item un\n  \\item deux\n\\end{itemize}');
    expect(tex).toContain('\\begin{enumerate}\n  \\item premier\n  \\item second\n\\end{enumerate}');
  });
  it('turns Markdown escapes into literal characters', () => {
    expect(markdownToLatex('\\$5 et \\_x\\_ et \\\\')).toBe('\\$5 et \\_x\\_ et \\textbackslash{}');
  });
});

describe('buildChapterLatex', () => {
  it('numbers exercises and versions', () => {
    const tex = buildChapterLatex({ title: 'T & T', headerStudents: '' }, [
      { title: 'Un', statementVersions: [{ content: 'a' }] },
      { title: 'Deux', statementVersions: [{ content: 'b' }, { content: 'c' }] },
    ]);
    expect(tex).toContain('{\\LARGE\\bfseries T \\& T}');
    expect(tex).not.toContain('Instructions générales');
    expect(tex).toContain('\\section*{Exercice 1 : Un}\na');
    expect(tex).toContain('\\section*{Exercice 2 : Deux}\n\\subsection*{Version 1}\nb');
    expect(tex).toContain('\\subsection*{Version 2}\nc');
    expect(tex.trim().endsWith('\\end{document}')).toBe(true);
  });
});

describe('latexFileName', () => {
  it('is the chapter title with .tex, without path characters', () => {
    expect(latexFileName('Coupe Olympe 2026 — Tour 1')).toBe('Coupe Olympe 2026 — Tour 1.tex');
    expect(latexFileName('a/b:c')).toBe('a b c.tex');
    expect(latexFileName('  ')).toBe('sujet.tex');
  });
});

describe('nestableEnvironments', () => {
  it('turns the display environments KaTeX takes between $$ into forms that nest in \\[ \\]', () => {
    expect(nestableEnvironments('\\begin{align*} a &= b \\\\ c &= d \\end{align*}')).toBe(
      '\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}',
    );
    expect(nestableEnvironments('\\begin{gather}x\\\\y\\end{gather}')).toBe('\\begin{gathered}x\\\\y\\end{gathered}');
    expect(nestableEnvironments('\\begin{alignat*}{2} a &= b \\end{alignat*}')).toBe('\\begin{alignedat}{2} a &= b \\end{alignedat}');
    expect(nestableEnvironments('\\begin{equation} x = 1 \\label{eq:1}\\tag{1} \\end{equation}')).toBe(' x = 1  ');
  });

  it('leaves the environments that already nest alone', () => {
    const cases = '\\begin{cases} 1 & x > 0 \\\\ 0 & \\text{sinon} \\end{cases}';
    expect(nestableEnvironments(cases)).toBe(cases);
    expect(nestableEnvironments('\\begin{pmatrix} 1 \\end{pmatrix}')).toBe('\\begin{pmatrix} 1 \\end{pmatrix}');
  });

  it('is applied by markdownToLatex to display and inline formulas', () => {
    expect(markdownToLatex('$$\\begin{align*} a &= 1 \\end{align*}$$')).toBe('\\[ \\begin{aligned} a &= 1 \\end{aligned} \\]');
  });
});

describe('French spaces and symbols', () => {
  it('prints the narrow no-break space as a thin space, in text and in formulas', () => {
    expect(escapeLatex('«\u202fBonjour\u202f»\u202f; 1\u202f000')).toBe('«\\,Bonjour\\,»\\,; 1\\,000');
    expect(sanitizeMath('60°')).toBe('60^{\\circ}');
    expect(sanitizeMath('x ∈ ℝ, n ∈ ℕ')).toBe('x \\in  \\mathbb{R}, n \\in  \\mathbb{N}');
    expect(escapeLatex('dans ℝ')).toBe('dans $\\mathbb{R}$');
  });
});
