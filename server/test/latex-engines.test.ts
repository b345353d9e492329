import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realStatements } from './fixtures/latex-statements.js';
import { buildTestApp, inject, loginAs, type TestApp } from './helpers.js';
import { pdfText, requireTool } from './latex-tools.js';

/**
 * The subject export compiles with pdflatex and with lualatex, French text intact in both
 * (decision 55). No silent pass: a missing engine fails and names the Debian packages to install.
 */
let t: TestApp;
let latex: string;
beforeAll(async () => {
  t = await buildTestApp();
  const admin = await loginAs(t, 'admin');
  const chapter = await inject(t, {
    method: 'POST',
    url: '/api/chapter',
    headers: admin,
    payload: { title: 'Coupe 2026 — Tour 1 : « Été »' },
  });
  const chapterId = chapter.body._id as string;
  for (const statement of realStatements) {
    const res = await inject(t, {
      method: 'POST',
      url: '/api/exos',
      headers: admin,
      payload: { chapter: chapterId, title: statement.title, answerFormat: 'pdf', statementVersions: [{ content: statement.content }] },
    });
    expect(res.status).toBe(201);
  }
  const res = await t.app.inject({ method: 'GET', url: `/api/exos/latex/${chapterId}`, headers: admin });
  expect(res.statusCode).toBe(200);
  latex = res.body;
});
afterAll(async () => t.close());

describe.each(['pdflatex', 'lualatex'] as const)('the subject of real-style statements with %s', (engine) => {
  it('compiles without an error or a missing character, and every French line reads back intact', () => {
    requireTool(engine);
    requireTool('pdftotext');
    const dir = mkdtempSync(path.join(os.tmpdir(), `olympe-${engine}-`));
    writeFileSync(path.join(dir, 'sujet.tex'), latex);
    const run = spawnSync(engine, ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'sujet.tex'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const errors = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .join('\n');
    expect(errors, `${engine}:\n${run.stdout.slice(-3000)}`).toBe('');
    expect(run.status).toBe(0);
    const log = readFileSync(path.join(dir, 'sujet.log'), 'utf8');
    expect(log.match(/Missing character[^\n]*/g) ?? []).toEqual([]);

    const text = pdfText(path.join(dir, 'sujet.pdf'));
    expect(text).toContain('Coupe 2026 — Tour 1 : « Été »');
    for (const statement of realStatements) {
      for (const phrase of statement.mustRead) expect(text, statement.title).toContain(phrase);
    }
  }, 180_000);
});
