import { degrees, PDFDocument } from 'pdf-lib';

/** One output PDF: the scan's pages (1-based, in this order), each turned by its chosen rotation. */
export interface SplitPart {
  pages: Array<{ pageNum: number; rotation: number }>;
}

/**
 * DESIGN §3 Sorting: one PDF per (pupil, exercise), pages in order, each rotated as chosen. The
 * chosen rotation adds to the page's own /Rotate, so the sorter's view (pdf.js draws the page with
 * its /Rotate, then turns it) is what the corrector gets. The scan is parsed once for all parts.
 */
export async function splitScan(bytes: Uint8Array, parts: SplitPart[]): Promise<Array<{ bytes: Buffer; pages: number }>> {
  const source = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  const out: Array<{ bytes: Buffer; pages: number }> = [];
  for (const part of parts) {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const copied = await doc.copyPages(
      source,
      part.pages.map((p) => p.pageNum - 1),
    );
    copied.forEach((page, i) => {
      const angle = (((page.getRotation().angle + part.pages[i].rotation) % 360) + 360) % 360;
      page.setRotation(degrees(angle));
      doc.addPage(page);
    });
    out.push({ bytes: Buffer.from(await doc.save()), pages: copied.length });
  }
  return out;
}

/** Page count of a stored PDF (files uploaded before the count was recorded). */
export async function countPages(bytes: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  return doc.getPageCount();
}
