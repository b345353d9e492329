import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderAnswerSheets, type SheetInput } from './render.js';

/** The text of one page, as pdftotext (poppler-utils) reads it. */
async function textOf(pdf: Uint8Array, page: number): Promise<string> {
  const child = promisify(execFile)('pdftotext', ['-f', String(page), '-l', String(page), '-layout', '-', '-']);
  child.child.stdin!.end(Buffer.from(pdf));
  // Every space folded to a plain one, the no-break ones of French typography too.
  return (await child).stdout.replace(/\s+/g, ' ');
}

const input: SheetInput = {
  secret: 'a-test-secret-a-test-secret',
  chapter: { id: randomUUID(), title: 'Coupe papier 2026' },
  centreName: 'Collège Pascal',
  exercises: [
    { id: randomUUID(), title: 'Géométrie' },
    { id: randomUUID(), title: 'Arithmétique' },
  ],
  pupils: [
    { id: randomUUID(), firstName: 'Émilie', lastName: 'du Châtelet' },
    { id: randomUUID(), firstName: 'Łukasz', lastName: 'Żółć محمد' },
  ],
  spare: 1,
};

describe('answer sheets PDF', () => {
  it('prints the pupil’s name, the exercise and the page in clear on every page', async () => {
    const pdf = await renderAnswerSheets(input);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(2 * (1 + 2 * 2));
    const cover = await textOf(pdf, 1);
    expect(cover).toContain('DU CHÂTELET Émilie');
    expect(cover).toContain('Feuilles réponses');
    expect(cover).toContain('Centre : Collège Pascal');
    expect(cover).toContain('Exercice 2 : Arithmétique (2 pages)');
    const page = await textOf(pdf, 3);
    expect(page).toContain('Coupe papier 2026');
    expect(page).toContain('Exercice 1 : Géométrie');
    expect(page).toContain('Page 2 sur 2 (page supplémentaire, à rendre même vide)');
    // Decision 143: the embedded font prints the name's own letters (Arabic comes back in visual order).
    const named = await textOf(pdf, 6);
    expect(named).toContain('ŻÓŁĆ');
    expect(named).toContain('Łukasz');
    expect(named).toMatch(/[\u0600-\u06ff]{4}/);
  });

  it('a blank sheet has lines for the name instead', async () => {
    const pdf = await renderAnswerSheets({ ...input, pupils: null, spare: 0 });
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(3);
    expect(await textOf(pdf, 2)).toContain('Nom : ______');
    expect(await textOf(pdf, 1)).toContain('Écrivez vos nom et prénom en haut de chaque page.');
  });
});
