import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PDFDocument, PDFFont } from '@cantoo/pdf-lib';
import * as fontkit from '@cantoo/fontkit';

/**
 * The font of every PDF the server draws (decision 143): DejaVu Sans, regular and bold, embedded as a
 * subset, so that « Łukasz Nguyễn », « Ștefan Țăranu » or « Øyvind Ødegård » print as they are written,
 * where the standard Helvetica (WinAnsi only) printed « ? ». The files (and their licence) are in
 * server/assets/fonts/.
 */
const FONT_DIR = new URL('../../assets/fonts/', import.meta.url);

type Face = 'regular' | 'bold';
const FILES: Record<Face, string> = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' };
const POSTSCRIPT_NAMES: Record<Face, string> = { regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' };

/** « ABCDEF+DejaVuSans »: the six-capital tag the PDF standard gives a subset font, so readers (pdffonts) see it as one. */
const subsetName = (face: Face) => `${Array.from({ length: 6 }, () => String.fromCharCode(65 + randomInt(26))).join('')}+${POSTSCRIPT_NAMES[face]}`;

/** Read once per process (per worker thread for the PDF pool), never per document. */
const bytes = new Map<Face, Uint8Array>();
/** fontkit's parsed faces, by the bytes above: parsing 700 kB per certificate would cost more than drawing it. */
const parsed = new Map<Uint8Array, ReturnType<typeof fontkit.create>>();

function fontBytes(face: Face): Uint8Array {
  let b = bytes.get(face);
  if (!b) bytes.set(face, (b = new Uint8Array(readFileSync(new URL(FILES[face], FONT_DIR)))));
  return b;
}

/** fontkit with its parsed faces kept: pdf-lib only reads them (layout, widths) and subsets them per document. */
const cachedFontkit = {
  create(buffer: Uint8Array, postscriptName?: string) {
    let font = parsed.get(buffer);
    if (!font) parsed.set(buffer, (font = fontkit.create(buffer, postscriptName)));
    return font;
  },
};

export interface PdfFonts {
  regular: PDFFont;
  bold: PDFFont;
  /**
   * Text the embedded font can draw, NFC-normalised: a letter the font lacks loses its accent, or
   * becomes « ? » when even its base letter is missing (DejaVu Sans covers Latin, Greek, Cyrillic…).
   * Tabs and line ends are kept for the callers that wrap lines.
   */
  drawable: (text: string) => string;
}

/** One face embedded in `doc` as a subset: only the glyphs drawn (or encoded) are written. */
export async function embedFace(doc: PDFDocument, face: Face): Promise<PDFFont> {
  doc.registerFontkit(cachedFontkit);
  return doc.embedFont(fontBytes(face), { subset: true, customName: subsetName(face) });
}

/** Both faces embedded in `doc`, with the filter of what they can draw. */
export async function embedFonts(doc: PDFDocument): Promise<PdfFonts> {
  const regular = await embedFace(doc, 'regular');
  const bold = await embedFace(doc, 'bold');
  return { regular, bold, drawable: drawableIn(regular, bold) };
}

/** Letters that NFD does not split into base letter + accent, for a font lacking them. */
const BASE_LETTERS: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŀ: 'L', ŀ: 'l', Ŧ: 'T', ŧ: 't', Ə: 'E', ə: 'e' };

export function drawableIn(...fonts: PDFFont[]): (text: string) => string {
  // A character is kept only when every face has it: a text may be drawn in either.
  const sets = fonts.map((f) => new Set(f.getCharacterSet()));
  const has = (c: string) => c === '\n' || c === '\r' || c === '\t' || sets.every((s) => s.has(c.codePointAt(0)!));
  return (text: string) =>
    [...text.normalize('NFC')]
      .map((c) => (has(c) ? c : (BASE_LETTERS[c] ?? c.normalize('NFD').replace(/\p{M}/gu, ''))))
      .map((c) => ([...c].every(has) && c.length > 0 ? c : '?'))
      .join('');
}
