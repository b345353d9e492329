import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { pdfPageCount, splitPdf } from '../pdf/pdf-pool.js';

/** One output PDF: the scan's pages (1-based, in this order), each turned by its chosen rotation. */
export interface SplitPart {
  pages: Array<{ pageNum: number; rotation: number }>;
}

/**
 * docs/product.md#design-3 Sorting: one PDF per (pupil, exercise), pages in order, each rotated as chosen. The
 * chosen rotation adds to the page's own /Rotate, so the sorter's view (pdf.js draws the page with
 * its /Rotate, then turns it) is what the corrector gets. The scan is parsed once, in a PDF worker
 * (pdf/pdf-pool.ts), for all parts; a hostile file is refused there (413/400).
 */
export async function splitScan(bytes: Uint8Array, parts: SplitPart[]): Promise<Array<{ bytes: Buffer; pages: number }>> {
  return splitPdf(bytes, parts);
}

/** Page count of a stored PDF (files uploaded before the count was recorded), read in a PDF worker. */
export async function countPages(bytes: Uint8Array): Promise<number> {
  return pdfPageCount(bytes);
}

/** The split itself, on an already loaded scan (run by pdf/pdf-worker.ts). */
export async function splitDocument(source: PDFDocument, parts: SplitPart[]): Promise<Array<{ bytes: Uint8Array; pages: number }>> {
  const out: Array<{ bytes: Uint8Array; pages: number }> = [];
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
    out.push({ bytes: await doc.save(), pages: copied.length });
  }
  return out;
}
