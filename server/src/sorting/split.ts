import { degrees, PDFDocument } from '@cantoo/pdf-lib';
import { appendPdf, pdfPageCount, splitPdf } from '../pdf/pdf-pool.js';

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
export async function splitScan(
  bytes: Uint8Array,
  parts: SplitPart[],
  opts: { maskNames?: boolean } = {},
): Promise<Array<{ bytes: Buffer; pages: number }>> {
  return splitPdf(bytes, parts, opts.maskNames ?? false);
}

/**
 * Decision 139: a graded copy receiving more sorted pages keeps its answer row (and so its grade): its PDF
 * becomes its pages followed by the new ones, written in a PDF worker.
 */
export async function appendPages(copy: Uint8Array, added: Uint8Array): Promise<{ bytes: Buffer; pages: number }> {
  return appendPdf(copy, added);
}

/** Page count of a stored PDF (files uploaded before the count was recorded), read in a PDF worker. */
export async function countPages(bytes: Uint8Array): Promise<number> {
  return pdfPageCount(bytes);
}

/** A page of the scan as displayed, drawn to a JPEG at `dpi` (decision 107). */
export type PagePicture = (pageIndex: number) => Promise<{ jpeg: Uint8Array; dpi: number }>;

/** A page of the scan as displayed with its name band painted white (decision 130); `rotation` is the sorter's turn. */
export type MaskedPicture = (pageIndex: number, rotation: number) => Promise<{ jpeg: Uint8Array; dpi: number }>;

/**
 * The split itself, on an already loaded scan (run by pdf/pdf-worker.ts). A damaged scan whose
 * pages pdf-lib cannot copy (a broken page tree: « Parent.ascend is not a function ») is split page
 * by page, and a page that still cannot be copied goes in as its picture, drawn by `picture`, so the
 * copy can always be labelled (decision 107).
 */
export async function splitDocument(
  source: PDFDocument,
  parts: SplitPart[],
  picture?: PagePicture,
  masked?: MaskedPicture,
): Promise<Array<{ bytes: Uint8Array; pages: number }>> {
  const out: Array<{ bytes: Uint8Array; pages: number }> = [];
  for (const part of parts) {
    let doc: PDFDocument;
    if (masked) {
      out.push({ bytes: await (await picturePart(part, masked)).save(), pages: part.pages.length });
      continue;
    }
    try {
      doc = await copyPart(source, part);
    } catch (err) {
      if (!picture) throw err;
      doc = await copyPartPageByPage(source, part, picture);
    }
    out.push({ bytes: await doc.save(), pages: part.pages.length });
  }
  return out;
}

const turned = (own: number, chosen: number) => degrees((((own + chosen) % 360) + 360) % 360);

async function copyPart(source: PDFDocument, part: SplitPart): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const copied = await doc.copyPages(
    source,
    part.pages.map((p) => p.pageNum - 1),
  );
  copied.forEach((page, i) => {
    page.setRotation(turned(page.getRotation().angle, part.pages[i].rotation));
    doc.addPage(page);
  });
  return doc;
}

/**
 * Decision 130: every page is its masked picture, nothing else of the scan is copied (no picture under a
 * white box, no text layer a copier's OCR added, no annotation).
 */
async function picturePart(part: SplitPart, masked: MaskedPicture): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const p of part.pages) {
    const { jpeg, dpi } = await masked(p.pageNum - 1, p.rotation);
    addPicturePage(doc, await doc.embedJpg(jpeg), dpi, p.rotation);
  }
  return doc;
}

/** A page that is one picture at `dpi`, turned by the sorter's rotation (its own /Rotate is already in the pixels). */
function addPicturePage(doc: PDFDocument, image: Awaited<ReturnType<PDFDocument['embedJpg']>>, dpi: number, rotation: number): void {
  const page = doc.addPage([(image.width * 72) / dpi, (image.height * 72) / dpi]);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  page.setRotation(turned(0, rotation));
}

async function copyPartPageByPage(source: PDFDocument, part: SplitPart, picture: PagePicture): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  for (const p of part.pages) {
    try {
      const [page] = await doc.copyPages(source, [p.pageNum - 1]);
      page.setRotation(turned(page.getRotation().angle, p.rotation));
      doc.addPage(page);
    } catch {
      // The picture is the page as displayed: its own /Rotate is already in the pixels.
      const { jpeg, dpi } = await picture(p.pageNum - 1);
      addPicturePage(doc, await doc.embedJpg(jpeg), dpi, p.rotation);
    }
  }
  return doc;
}
