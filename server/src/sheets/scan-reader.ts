import { PDFDocument, type PDFPage } from 'pdf-lib';
import { decodeSheetCode, type SheetCode } from './payload.js';
import { pageImage } from './scan-images.js';
import { findSheetCodes, nearestQuarter } from './read-code.js';

export type PageStatus =
  /** A code of this chapter, verified. */
  | 'read'
  /** A genuine code of another chapter. */
  | 'foreign'
  /** Something that looks like a sheet code but fails the check value. */
  | 'forged'
  /** A picture without a readable code (torn, smudged, not a sheet). */
  | 'unreadable'
  /** No picture this reader can decode (see scan-images.ts). */
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
 * Reads the code of every page of a scanned PDF, on this thread (tests; the decode job reads in a
 * PDF worker, pdf/pdf-pool.ts, where a hostile file is capped in time and memory).
 */
export async function readScan(pdf: Uint8Array, secret: string, chapterId: string): Promise<PageReading[]> {
  const doc = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false });
  return readScanDocument(doc, secret, chapterId);
}

/** The reading itself, on an already loaded scan (run by pdf/pdf-worker.ts). */
export async function readScanDocument(doc: PDFDocument, secret: string, chapterId: string): Promise<PageReading[]> {
  const readings: PageReading[] = [];
  for (const [index, page] of doc.getPages().entries()) {
    readings.push(await readPage(doc, page, index, secret, chapterId));
  }
  return readings;
}

async function readPage(doc: PDFDocument, page: PDFPage, index: number, secret: string, chapterId: string): Promise<PageReading> {
  const image = pageImage(doc, page);
  if (!image) return { page: index, status: 'no-image', code: null, rotation: 0 };
  const found = await findSheetCodes(image, looksLikeSheetCode);
  if (found.length === 0) return { page: index, status: 'unreadable', code: null, rotation: 0 };
  // Two sheet codes on one page (a sheet photocopied onto another): the first verified one wins.
  const verified = found.map((f) => ({ ...f, code: decodeSheetCode(secret, f.bytes) }));
  const best = verified.find((f) => f.code?.chapterId === chapterId) ?? verified.find((f) => f.code);
  if (!best?.code) return { page: index, status: 'forged', code: null, rotation: 0 };
  const { code } = best;
  // The code prints upright on an upright sheet: turning the page back by its turn makes it upright.
  const rotation = (360 - nearestQuarter(best.angle + image.displayTurn)) % 360;
  if (code.chapterId !== chapterId) return { page: index, status: 'foreign', code, rotation };
  return { page: index, status: 'read', code, rotation };
}
