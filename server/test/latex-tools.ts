import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * The TeX engines and pdftotext the LaTeX export's tests run (decision 55). No silent pass: a missing tool fails
 * and names the Debian packages to install.
 */
const TOOLS = {
  pdflatex: 'texlive-latex-base lmodern',
  lualatex: 'texlive-luatex texlive-latex-recommended',
  pdftotext: 'poppler-utils',
} as const;

export function requireTool(tool: keyof typeof TOOLS): void {
  const found = spawnSync(tool, ['-v'], { encoding: 'utf8' });
  if (found.error) {
    throw new Error(`${tool} est introuvable : installez les paquets Debian « ${TOOLS[tool]} ».`);
  }
}

/** Text as pdftotext reads it, with every kind of space made one plain space. */
export function pdfText(file: string): string {
  const run = spawnSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stdout.replace(/[\s\u00a0\u202f\u2009]+/g, ' ');
}
