import { PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { decodeSheetCode, type SheetCode } from './payload.js';
import { cropSizeOrA4, dpiFor, openRenderSource, RenderError, renderPage } from '../pdf/render-page.js';
import { pageImage, type PageImage } from './scan-images.js';
import { inkShare, type Gray } from './raster.js';
import { findSheetCodes, nearestQuarter, type FoundCode } from './read-code.js';

export type PageStatus =
  /** A code of this chapter, verified. */
  | 'read'
  /** A genuine code of another chapter. */
  | 'foreign'
  /** Something that looks like a sheet code but fails the check value. */
  | 'forged'
  /** Ink without a readable code (torn, smudged, not a sheet). */
  | 'unreadable'
  /** No ink beyond a speck (BLANK_INK_SHARE): a duplex back, an empty sheet. */
  | 'blank'
  /** A page the renderer could not draw (damaged, past a cap). */
  | 'no-image';

export interface PageReading {
  /** 0-based page index in the scanned file. */
  page: number;
  status: PageStatus;
  code: SheetCode | null;
  /** Clockwise quarter turns (degrees) that make the page upright; 0 when unknown. */
  rotation: number;
}

const looksLikeSheetCode = (bytes: Uint8Array) => bytes[0] === 0x11 || bytes[0] === 0x12;

/**
 * A page whose ink covers less than this share of its surface (raster.ts inkShare) is suggested
 * blank: 0.05 % of an A4 page is ~30 mm² of ink, less than a short word; a printed answer sheet
 * (its header and code alone) is over 1 %.
 */
export const BLANK_INK_SHARE = 0.0005;

/** Bench knob: `embeddedFirst: false` renders every page, even one whose picture reads as is. */
export const readerOptions = { embeddedFirst: true };

/**
 * Reads the code of every page of a scanned PDF, on this thread (tests; the decode job reads in a
 * PDF worker, pdf/pdf-pool.ts, where a hostile file is capped in time and memory).
 */
export async function readScan(pdf: Uint8Array, secret: string, chapterId: string): Promise<PageReading[]> {
  const doc = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false });
  return readScanDocument(doc, pdf, secret, chapterId);
}

/**
 * The reading itself, on an already loaded scan (run by pdf/pdf-worker.ts): page by page, one
 * page's pixels held at a time. The picture a scanner put on the page is tried first (ZXing reads
 * its JPEG as is, 2–4 times cheaper than rendering); a page it does not read, or whose picture
 * this code cannot decode, is rendered by poppler (pdf/render-page.ts, decision 57).
 */
export async function readScanDocument(doc: PDFDocument, bytes: Uint8Array, secret: string, chapterId: string): Promise<PageReading[]> {
  const readings: PageReading[] = [];
  const source = await openRenderSource(bytes);
  try {
    for (const [index, page] of doc.getPages().entries()) {
      readings.push(await readPage(doc, page, index, source.file, secret, chapterId));
    }
  } finally {
    await source.close();
  }
  return readings;
}

async function readPage(
  doc: PDFDocument,
  page: PDFPage,
  index: number,
  file: string,
  secret: string,
  chapterId: string,
): Promise<PageReading> {
  if (readerOptions.embeddedFirst) {
    let image: PageImage | null = null;
    try {
      image = pageImage(doc, page);
    } catch {
      image = null;
    }
    if (image) {
      const reading = codeReading(await findSheetCodes(image, looksLikeSheetCode), image.displayTurn, index, secret, chapterId);
      if (reading) return reading;
    }
  }
  let gray: Gray;
  try {
    gray = await renderPage(file, index, dpiFor(...cropSizeOrA4(doc, index)));
  } catch (err) {
    if (err instanceof RenderError) return { page: index, status: 'no-image', code: null, rotation: 0 };
    throw err;
  }
  const reading = codeReading(
    await findSheetCodes({ picture: { kind: 'pixels', gray }, displayTurn: 0 }, looksLikeSheetCode),
    0,
    index,
    secret,
    chapterId,
  );
  if (reading) return reading;
  const status = inkShare(gray) < BLANK_INK_SHARE ? 'blank' : 'unreadable';
  return { page: index, status, code: null, rotation: 0 };
}

/**
 * What the codes found on a page say; null when there is none. Every answer sheet carries the same
 * code twice, in opposite corners (render.ts): one is enough. Codes that do not verify are set
 * aside (a damaged or forged one beside a genuine one); the verified ones must all say the same
 * thing, or the page is left unread for the sorter (decision 110): a sheet photocopied onto
 * another, or a code of another pupil stuck over one corner, is never given to either pupil.
 */
function codeReading(found: FoundCode[], displayTurn: number, index: number, secret: string, chapterId: string): PageReading | null {
  if (found.length === 0) return null;
  const verified = found.flatMap((f) => {
    const code = decodeSheetCode(secret, f.bytes);
    return code ? [{ ...f, code }] : [];
  });
  if (verified.length === 0) return { page: index, status: 'forged', code: null, rotation: 0 };
  const [first, ...others] = verified;
  if (others.some((f) => !sameCode(f.code, first.code))) return { page: index, status: 'unreadable', code: null, rotation: 0 };
  const { code } = first;
  // The code prints upright on an upright sheet: turning the page back by its turn makes it upright.
  const rotation = (360 - nearestQuarter(first.angle + displayTurn)) % 360;
  if (code.chapterId !== chapterId) return { page: index, status: 'foreign', code, rotation };
  return { page: index, status: 'read', code, rotation };
}

const sameCode = (a: SheetCode, b: SheetCode) =>
  a.chapterId === b.chapterId && a.exerciseId === b.exerciseId && a.userId === b.userId && a.page === b.page;
