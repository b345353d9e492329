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
const subsetName = (face: Face) =>
  `${Array.from({ length: 6 }, () => String.fromCharCode(65 + randomInt(26))).join('')}+${POSTSCRIPT_NAMES[face]}`;

/** Read once per process (per worker thread for the PDF pool), never per document. */
const bytes = new Map<Face, Uint8Array>();
function fontBytes(face: Face): Uint8Array {
  let b = bytes.get(face);
  if (!b) bytes.set(face, (b = new Uint8Array(readFileSync(new URL(FILES[face], FONT_DIR)))));
  return b;
}

/** fontkit's face, as far as it is shared below (its own fields are not in the typings). */
interface ParsedFace {
  _glyphs: Record<number, unknown>;
  _installTableGetters?: () => void;
  layout: (text: string, features?: unknown) => unknown;
}

/** Texts laid out, kept per face: the words every certificate or convocation repeats are laid out once. */
const MAX_RUNS = 2000;

interface SharedFace {
  /** Parsed once; each document's face inherits from it, and the subsets read their glyphs from it. */
  base: ParsedFace;
  /** A twin of `base` that only lays text out, so that every glyph it caches carries its characters. */
  layoutFace: ParsedFace;
  runs: Map<string, unknown>;
}
const shared = new Map<Uint8Array, SharedFace>();

function twin(base: ParsedFace): ParsedFace {
  // As fontkit's own getVariation(): the decoded tables are shared, the glyph cache is not.
  const face = Object.assign(Object.create(Object.getPrototypeOf(base) as object) as ParsedFace, base);
  face._glyphs = {};
  face._installTableGetters?.();
  return face;
}

/**
 * fontkit, parsing each face once per process, and laying each text out once: drawing with a Unicode
 * font costs several times Helvetica's, and a certificate ZIP draws 10,000 (decision 72). A glyph is
 * cached with the characters it was first met for: the subsets write composite glyphs (« À » uses
 * « A ») without any, so the text is laid out on a twin face that only lays out, else « A » would
 * lose its characters and another document its copyable « A » (fonts.test.ts checks it).
 */
const perDocument = {
  create(buffer: Uint8Array, postscriptName?: string) {
    let entry = shared.get(buffer);
    if (!entry) {
      const base = (postscriptName === undefined
        ? fontkit.create(buffer)
        : fontkit.create(buffer, postscriptName)) as unknown as ParsedFace;
      shared.set(buffer, (entry = { base, layoutFace: twin(base), runs: new Map() }));
    }
    const { base, layoutFace, runs } = entry;
    const face = Object.create(base as object) as ParsedFace;
    face.layout = (text, features) => {
      if (features !== undefined) return layoutFace.layout(text, features);
      let run = runs.get(text);
      if (!run) {
        if (runs.size >= MAX_RUNS) runs.clear();
        runs.set(text, (run = layoutFace.layout(text)));
      }
      return run;
    };
    return face as unknown as ReturnType<typeof fontkit.create>;
  },
};

interface PdfFonts {
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
  doc.registerFontkit(perDocument);
  return doc.embedFont(fontBytes(face), { subset: true, customName: subsetName(face) });
}

/** Both faces embedded in `doc`, with the filter of what they can draw. */
export async function embedFonts(doc: PDFDocument): Promise<PdfFonts> {
  const regular = await embedFace(doc, 'regular');
  const bold = await embedFace(doc, 'bold');
  return {
    regular,
    bold,
    drawable: drawableIn([
      ['regular', regular],
      ['bold', bold],
    ]),
  };
}

/** Letters that NFD does not split into base letter + accent, for a font lacking them. */
const BASE_LETTERS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŀ: 'L',
  ŀ: 'l',
  Ŧ: 'T',
  ŧ: 't',
  Ə: 'E',
  ə: 'e',
};

/** The characters a face has, by face: the same in every document, built once (a few thousand code points). */
const characterSets = new Map<Face, Set<number>>();

function drawableIn(faces: Array<[Face, PDFFont]>): (text: string) => string {
  // A character is kept only when every face has it: a text may be drawn in either.
  const sets = faces.map(([face, font]) => {
    let set = characterSets.get(face);
    if (!set) characterSets.set(face, (set = new Set(font.getCharacterSet())));
    return set;
  });
  const has = (c: string) => c === '\n' || c === '\r' || c === '\t' || sets.every((s) => s.has(c.codePointAt(0)!));
  return (text: string) =>
    [...text.normalize('NFC')]
      .map((c) => (has(c) ? c : (BASE_LETTERS[c] ?? c.normalize('NFD').replace(/\p{M}/gu, ''))))
      .map((c) => (c.length > 0 && [...c].every(has) ? c : '?'))
      .join('');
}
