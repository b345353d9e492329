import { deflateSync } from 'node:zlib';
import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { objStmBomb, rawPdf, xrefStreamBomb, zeroBomb } from '../../test/fixtures/pdf-bombs.js';
import { assertInflateWithinBudget, INFLATE_BUDGET_BYTES, PdfBombError } from './inflate-guard.js';
import { loadWithinBudget } from './pdf-worker.js';

const MB = 1024 * 1024;
const pages = [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
];
const stream = (dict: string, data: Buffer) => ({
  body: Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]),
});

describe('the inflate budget of load-time streams', () => {
  it('lets a genuine PDF with object streams through', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 300; i++) doc.addPage().drawText(`page ${i}`);
    const bytes = await doc.save({ useObjectStreams: true });
    expect(() => assertInflateWithinBudget(bytes)).not.toThrow();
  });

  it('refuses an object stream past the budget, within a few hundred milliseconds, and accepts one under it', () => {
    const started = performance.now();
    expect(() => assertInflateWithinBudget(objStmBomb(1024))).toThrow(PdfBombError);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(() => assertInflateWithinBudget(objStmBomb(8), 16 * MB)).not.toThrow();
    expect(() => assertInflateWithinBudget(objStmBomb(17), 16 * MB)).toThrow(PdfBombError);
  });

  it('adds up the streams of one file', () => {
    const twice = rawPdf([
      ...pages,
      stream('/Type /ObjStm /N 1 /First 8 /Filter /FlateDecode', zeroBomb(10)),
      stream('/Type /ObjStm /N 1 /First 8 /Filter /FlateDecode', zeroBomb(10)),
    ]);
    expect(() => assertInflateWithinBudget(twice, 16 * MB)).toThrow(PdfBombError);
    expect(() => assertInflateWithinBudget(twice, 32 * MB)).not.toThrow();
  });

  it('follows filter chains: ASCIIHex then Flate, Flate then RunLength (each byte pair giving 128)', () => {
    expect(() => assertInflateWithinBudget(xrefStreamBomb(100))).toThrow(PdfBombError);
    const runs = Buffer.alloc(2 * MB, Buffer.from([0x81, 0x00]));
    const chained = rawPdf([...pages, stream('/Type /ObjStm /N 1 /First 8 /Filter [/FlateDecode /RunLengthDecode]', deflateSync(runs))]);
    expect(() => assertInflateWithinBudget(chained)).toThrow(PdfBombError);
    expect(() => assertInflateWithinBudget(chained, 200 * MB)).not.toThrow();
  });

  it('sees through #xx escapes in names, an indirect /Filter, and a /Length given by reference', () => {
    const escaped = rawPdf([...pages, stream('/Type /Obj#53tm /N 1 /First 8 /Filter /Flate#44ecode', zeroBomb(100))]);
    expect(() => assertInflateWithinBudget(escaped)).toThrow(PdfBombError);
    const data = zeroBomb(100);
    const indirect = rawPdf([
      ...pages,
      {
        body: Buffer.concat([
          Buffer.from('<< /Type /ObjStm /N 1 /First 8 /Filter 5 0 R /Length 6 0 R >>\nstream\n'),
          data,
          Buffer.from('\nendstream'),
        ]),
      },
      '[/FlateDecode]',
      String(data.length),
    ]);
    expect(() => assertInflateWithinBudget(indirect)).toThrow(PdfBombError);
  });

  it('does not count content streams and images, which pdf-lib leaves compressed at load', () => {
    const content = rawPdf([...pages, stream('/Filter /FlateDecode', zeroBomb(200))]);
    expect(() => assertInflateWithinBudget(content)).not.toThrow();
  });
});

describe('the same budget inside the worker, on what pdf-lib itself inflates', () => {
  it('stops a bomb that the lexical scan did not see', async () => {
    await expect(loadWithinBudget(objStmBomb(INFLATE_BUDGET_BYTES / MB + 8), { prescan: false })).rejects.toThrow(PdfBombError);
    await expect(loadWithinBudget(objStmBomb(4), { prescan: false, budget: 2 * MB })).rejects.toThrow(PdfBombError);
  });

  it('loads a genuine file, object streams included', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 20; i++) doc.addPage();
    const loaded = await loadWithinBudget(await doc.save({ useObjectStreams: true }), { prescan: false, budget: 1 * MB });
    expect(loaded.getPageCount()).toBe(20);
  });
});
