import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { splitScan } from './split.js';

async function scan(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 1; i <= 4; i++) doc.addPage([100 + i, 200]);
  doc.getPage(2).setRotation(degrees(270));
  return Buffer.from(await doc.save());
}

describe('splitScan', () => {
  it('copies the chosen pages in the given order, adding the chosen rotation to the page’s own', async () => {
    const [a, b] = await splitScan(await scan(), [
      {
        pages: [
          { pageNum: 1, rotation: 90 },
          { pageNum: 3, rotation: 180 },
        ],
      },
      { pages: [{ pageNum: 4, rotation: 0 }] },
    ]);
    expect(a.pages).toBe(2);
    const docA = await PDFDocument.load(a.bytes);
    expect(docA.getPages().map((p) => [p.getWidth(), p.getRotation().angle])).toEqual([
      [101, 90],
      [103, 90],
    ]);
    const docB = await PDFDocument.load(b.bytes);
    expect(docB.getPages().map((p) => [p.getWidth(), p.getRotation().angle])).toEqual([[104, 0]]);
  });
});
