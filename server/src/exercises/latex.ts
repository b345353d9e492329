import { subjectFileName } from '@olympe/contract';
import { markdownToLatex } from './latex-markdown.js';
import { PREAMBLE } from './latex-preamble.js';
import { escapeLatex } from './latex-text.js';

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
