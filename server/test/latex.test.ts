import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, inject, loginAs, type TestApp } from './helpers.js';

/**
 * The exported subject must compile with pdflatex (Debian: texlive-latex-base and lmodern).
 * No silent pass: without pdflatex this test fails and says what to install.
 */
function requirePdflatex(): string {
  const found = spawnSync('pdflatex', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(
      'pdflatex est introuvable : installez les paquets Debian « texlive-latex-base lmodern » ' +
        '(apt-get install -y --no-install-recommends texlive-latex-base lmodern) pour tester l’export LaTeX.',
    );
  }
  return found.stdout.split('\n')[0];
}

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await loginAs(t, 'admin');
});
afterAll(async () => t.close());

describe('LaTeX export compiles', () => {
  it('turns a chapter with accents, math, several exercises and versions into a PDF with pages', async () => {
    requirePdflatex();
    const chapter = await inject(t, {
      method: 'POST',
      url: '/api/chapter',
      headers: admin,
      payload: { title: 'Coupe Olympe 2026 — Tour 1 : « Été » & 100 %' },
    });
    const chapterId = chapter.body._id as string;
    await inject(t, {
      method: 'PATCH',
      url: `/api/chapter/${chapterId}`,
      headers: admin,
      payload: {
        headerStudents:
          '# Consignes\n\nDurée : **1 heure**. Calculatrice *interdite*. Répondez par un nombre (virgule ou point).\n\n' +
          '- Élèves de 3ème, 2nde… « bonne chance » !\n- Coût : 5 € ; 20 °C ; a_b ~ c^d \\ {x} # & % $ seul\n',
      },
    });
    const exercises = [
      {
        title: 'Somme des carrés',
        answerFormat: 'numeric',
        statementVersions: [
          { content: 'Soit $n = 10$. Calculer\n$$\\sum_{k=1}^{n} k^2 = \\frac{n(n+1)(2n+1)}{6}$$\net donner $S \\bmod 7$.', answer: '385' },
          { content: 'Soit $n = 12$. Que vaut $\\displaystyle\\sum_{k=1}^{n} k^2$ ? (50 % des points)', answer: '650' },
        ],
      },
      {
        title: 'Géométrie & aires',
        answerFormat: 'numeric',
        statementVersions: [
          {
            content:
              '1. Un triangle $ABC$ est rectangle en $A$ avec $AB = 3$ et $AC = 4$.\n2. Calculer $BC$ où $BC² = AB² + AC²$ — π ≈ 3,14 ; 2 × 3 ≤ 7.',
            answer: '5',
          },
          {
            content: 'Aire d’un disque de rayon $r = \\sqrt{2}$ : $$\\mathcal{A} = \\pi r^2, \\quad x \\in \\R, \\ \\{1,2\\}$$',
            answer: '6,28',
          },
        ],
      },
      {
        title: 'Rédaction',
        answerFormat: 'pdf',
        statementVersions: [{ content: 'Démontrer que $\\sqrt{2} \\notin \\mathbb{Q}$. Justifier *chaque* étape ; un `code` aussi.' }],
      },
    ];
    for (const e of exercises) {
      const res = await inject(t, { method: 'POST', url: '/api/exos', headers: admin, payload: { ...e, chapter: chapterId } });
      expect(res.status).toBe(201);
    }
    const res = await t.app.inject({ method: 'GET', url: `/api/exos/latex/${chapterId}`, headers: admin });
    expect(res.statusCode).toBe(200);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-latex-'));
    writeFileSync(path.join(dir, 'sujet.tex'), res.body);
    const run = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'sujet.tex'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const errors = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('!'))
      .join('\n');
    expect(errors, `pdflatex errors:\n${run.stdout.slice(-3000)}`).toBe('');
    expect(run.status).toBe(0);

    const pdf = await PDFDocument.load(readFileSync(path.join(dir, 'sujet.pdf')));
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    // The text made it into the PDF: pdftotext is not installed, so check the log's page count line.
    expect(run.stdout).toMatch(/Output written on sujet\.pdf \(\d+ pages?/);
  }, 120_000);
});
