import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, inject, loginAs, type TestApp } from './helpers.js';
import { pdfText, requireTool } from './latex-tools.js';

/**
 * Decision 137: the exported subject, compiled by pdflatex or lualatex with their default settings, reads and
 * writes no file outside its folder, whatever the statements hold. Canary files with a unique string lie next to
 * the folder and in the system's temporary folder; the statements try every way we know to read them or to write
 * beside them, and the string must be absent from the PDF and the log, and no new file may appear.
 */
const secret = `CANARY${randomBytes(8).toString('hex').toUpperCase()}`;
const hex = (s: string) => Buffer.from(s).toString('hex').toUpperCase();
const outer = mkdtempSync(path.join(os.tmpdir(), 'olympe-latex-attacks-'));
const besideCanary = path.join(outer, 'canary-secret.txt');
const tmpCanary = path.join(os.tmpdir(), 'canary-secret.txt');
// Files the statements try to create in the system's temporary folder, named for this run only (not after the secret,
// which the statements must not hold).
const run = randomBytes(6).toString('hex');
const tmpTarget = (name: string) => path.join(os.tmpdir(), `olympe-pwned-${run}-${name}.txt`);
const TMP_TARGETS = ['write18', 'openout', 'latelua', 'directlua'].map(tmpTarget);

const ATTACKS = [
  `$\\inp^^75t{${tmpCanary}}$ et $\\inp^^75t{../canary-secret.txt}$`,
  `$^^5cinput{${besideCanary}}$ et $x^^^^005cinput{${tmpCanary}}$`,
  `$\\input{../canary-secret.txt}$ $$\\include{../canary-secret}$$ $\\text{\\input{${tmpCanary}}}$`,
  `$\\pdffiledump length 64 {${besideCanary}}$ $\\pdffiledump length 64 {${tmpCanary}}$`,
  `$\\newread\\r \\openin\\r=${tmpCanary} \\read\\r to\\x \\x$`,
  `$\\immediate\\write18{echo x > ${tmpTarget('write18')}}$ $\\write18{touch ../pwned-write18.txt}$`,
  `$\\newwrite\\w \\immediate\\openout\\w=${tmpTarget('openout')} \\immediate\\write\\w{x}\\immediate\\closeout\\w$`,
  `$\\newwrite\\v \\immediate\\openout\\v=../pwned-openout.txt \\immediate\\write\\v{x}\\immediate\\closeout\\v$`,
  `$\\latelua{local f=io.open("${tmpTarget('latelua')}","w") f:write("x") f:close()}$`,
  `$\\directlua{local f=io.open("${tmpTarget('directlua')}","w") f:write("x") f:close() tex.print(io.open("${tmpCanary}"):read("*a"))}$`,
  `$\\catcode\`\\|=0 |input{${besideCanary}}$ $\\catcode94=7 \\input{${tmpCanary}}$`,
  `$\\csname input\\endcsname{${tmpCanary}}$ $\\def\\x{\\input}\\x{${besideCanary}}$ $\\let\\y\\input \\y{${tmpCanary}}$`,
  `$\\usepackage{../canary-secret}$ $\\begin{filecontents}{../pwned-filecontents.txt}x\\end{filecontents}$`,
  `\\input{${tmpCanary}} en texte, et \\inp^^75t{${besideCanary}}, \\directlua{} \\catcode`,
];

/** What a pupil's subject holds and must still draw: the formulas of a real statement. */
const NORMAL =
  'Soit $f(x) = \\frac{x^2 + 1}{\\sqrt{x}}$ pour $x \\in \\mathbb{R}_+^*$ et\n' +
  '$$\\begin{aligned} S_n &= \\sum_{k=1}^{n} \\binom{n}{k} \\\\ &= 2^n - 1 \\end{aligned} \\qquad ' +
  'M = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix} \\quad \\text{matrice intacte}$$\n' +
  'et $\\left\\{ \\begin{array}{ll} a & \\text{si } x > 0 \\\\ b & \\text{sinon} \\end{array} \\right.$ — fin normale.';

let t: TestApp;
let latex: string;
beforeAll(async () => {
  writeFileSync(besideCanary, `${secret}\n`);
  writeFileSync(tmpCanary, `${secret}\n`);
  t = await buildTestApp();
  const admin = await loginAs(t, 'admin');
  const chapter = await inject(t, { method: 'POST', url: '/api/chapter', headers: admin, payload: { title: 'Sujet piégé' } });
  const chapterId = chapter.body._id as string;
  await inject(t, { method: 'PATCH', url: `/api/chapter/${chapterId}`, headers: admin, payload: { headerStudents: ATTACKS[0] } });
  for (const [i, content] of [...ATTACKS, NORMAL].entries()) {
    const res = await inject(t, {
      method: 'POST',
      url: '/api/exos',
      headers: admin,
      payload: { chapter: chapterId, title: `Essai ${i + 1}`, answerFormat: 'pdf', statementVersions: [{ content }] },
    });
    expect(res.status).toBe(201);
  }
  const res = await t.app.inject({ method: 'GET', url: `/api/exos/latex/${chapterId}`, headers: admin });
  expect(res.statusCode).toBe(200);
  latex = res.body;
});
afterAll(async () => {
  await t.close();
  rmSync(outer, { recursive: true, force: true });
  for (const file of TMP_TARGETS) rmSync(file, { force: true });
  if (existsSync(tmpCanary) && readFileSync(tmpCanary, 'utf8').includes(secret)) rmSync(tmpCanary);
});

/** Letters and digits only: math italic comes out of pdftotext with spaces and minus signs between them. */
const squeezed = (text: string) => text.replace(/[^A-Za-z0-9]/g, '').toUpperCase();

describe.each(['pdflatex', 'lualatex'] as const)('a subject whose statements attack the compiler, with %s', (engine) => {
  it('reads and writes nothing outside its folder, and still draws the normal formulas', () => {
    requireTool(engine);
    requireTool('pdftotext');
    const dir = path.join(outer, engine);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'sujet.tex'), latex);
    // The engine's defaults (Debian: openin_any=a, any file may be read), without halting on a first error, so
    // that every attack gets its chance.
    const compiled = spawnSync(engine, ['-interaction=nonstopmode', '-no-shell-escape', 'sujet.tex'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(TMP_TARGETS.filter((file) => existsSync(file))).toEqual([]);
    const besideFolder = readdirSync(outer).filter((name) => !['canary-secret.txt', 'pdflatex', 'lualatex'].includes(name));
    expect(besideFolder).toEqual([]);
    const log = readFileSync(path.join(dir, 'sujet.log'), 'utf8');
    expect(squeezed(log)).not.toContain(secret);
    expect(squeezed(log)).not.toContain(hex(secret));
    // A fatal error (a canary read as TeX code, say) leaves no PDF: that fails here, with the log.
    expect(existsSync(path.join(dir, 'sujet.pdf')), `${engine}:\n${compiled.stdout.slice(-3000)}`).toBe(true);
    const text = pdfText(path.join(dir, 'sujet.pdf'));
    expect(squeezed(text)).not.toContain(secret);
    expect(squeezed(text)).not.toContain(hex(secret));

    const errors = log.split('\n').filter((line) => line.startsWith('!'));
    expect(errors, `${engine}:\n${compiled.stdout.slice(-3000)}`).toEqual([]);
    expect(compiled.status).toBe(0);
    // The attacks are printed as typed, the normal formulas drawn.
    expect(text).toContain('\\directlua');
    expect(text).toContain('\\inp');
    expect(text).toContain('matrice intacte');
    expect(text).toContain('sinon');
    expect(text).toContain('fin normale');
  }, 180_000);
});
