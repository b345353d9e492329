import { crc32 } from 'node:zlib';
import { degrees, LineCapStyle, PDFDocument, rgb, type PDFFont, type PDFPage, type RGB } from '@cantoo/pdf-lib';
import type { Annotation } from '@olympe/contract';
import { embedFonts } from '../pdf/fonts.js';

/**
 * « Ma copie corrigée » (docs/product.md#returned-copies, decisions 159, 162): the pupil's copy with the marks of the
 * grade that counts drawn into its pages (ink as paths, boxes, ticks and crosses, notes, scheme items and bank
 * remarks as text beside a marker) after a first page with the grade and the comment. Runs in a PDF worker thread.
 */

export interface CorrectedCopyData {
  /** The copy's stored PDF; null for an answer without one (the first page alone). */
  pdf: Uint8Array | null;
  chapterTitle: string;
  exerciseTitle: string;
  pupil: string;
  /** « 7 / 10 », « X », « non noté ». */
  grade: string;
  comment: string;
  /** Named correctors (empty when the chapter does not name them). */
  correctors: string[];
  annotations: Annotation[];
  /** Scheme items' texts by id. */
  items: Record<string, string>;
}

/** A rendered copy: its bytes and CRC-32 (the ZIP needs it). */
export interface RenderedCopy {
  bytes: Uint8Array;
  crc: number;
}

const INK: Record<'red' | 'blue' | 'green', RGB> = { red: rgb(0.85, 0.05, 0.05), blue: rgb(0.1, 0.25, 0.85), green: rgb(0.05, 0.55, 0.15) };
const RED = INK.red;
const A4: [number, number] = [595.28, 841.89];
const TEXT_SIZE = 9;

/** A page as the desk shows it (its crop box, its /Rotate applied): where a fraction of it lies in PDF space. */
interface Frame {
  page: PDFPage;
  /** Width and height as shown, in points. */
  width: number;
  height: number;
  rotation: number;
  at: (fx: number, fy: number) => [number, number];
}

function frameOf(page: PDFPage): Frame {
  const { x, y, width: w, height: h } = page.getCropBox();
  const rotation = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const turned = rotation === 90 || rotation === 270;
  const at = (fx: number, fy: number): [number, number] => {
    if (rotation === 90) return [x + fy * w, y + fx * h];
    if (rotation === 180) return [x + (1 - fx) * w, y + fy * h];
    if (rotation === 270) return [x + (1 - fy) * w, y + (1 - fx) * h];
    return [x + fx * w, y + (1 - fy) * h];
  };
  return { page, width: turned ? h : w, height: turned ? w : h, rotation, at };
}

/** A polyline through page fractions (SVG path in PDF space, y negated: drawSvgPath flips it). */
function polyline(frame: Frame, points: ReadonlyArray<readonly [number, number]>, color: RGB, width: number, closed = false) {
  const d = points.map(([fx, fy], i) => {
    const [px, py] = frame.at(fx, fy);
    return `${i === 0 ? 'M' : 'L'}${px.toFixed(2)},${(-py).toFixed(2)}`;
  });
  if (points.length === 1) d.push(d[0].replace('M', 'L'));
  frame.page.drawSvgPath(d.join(' ') + (closed ? ' Z' : ''), {
    x: 0,
    y: 0,
    borderColor: color,
    borderWidth: width,
    borderLineCap: LineCapStyle.Round,
  });
}

/** Lines of at most `width` points. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(next, size) > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    lines.push(line);
  }
  return lines;
}

/** Text whose top-left corner is at a page fraction, upright as the page is shown, wrapped to `maxWidth` points. */
function label(frame: Frame, fx: number, fy: number, text: string, font: PDFFont, color: RGB, maxWidth: number) {
  const lines = wrap(text, font, TEXT_SIZE, maxWidth);
  const lineHeight = TEXT_SIZE * 1.25;
  const height = lines.length * lineHeight;
  // Kept on the page: a note near the right or bottom edge opens towards the inside.
  const widest = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, TEXT_SIZE)));
  const left = Math.max(0, Math.min(fx, 1 - (widest + 4) / frame.width));
  const top = Math.max(0, Math.min(fy, 1 - (height + 4) / frame.height));
  const corners: Array<[number, number]> = [
    [left - 2 / frame.width, top - 2 / frame.height],
    [left + (widest + 2) / frame.width, top - 2 / frame.height],
    [left + (widest + 2) / frame.width, top + (height + 2) / frame.height],
    [left - 2 / frame.width, top + (height + 2) / frame.height],
  ];
  const d = corners.map(([cx, cy], i) => {
    const [px, py] = frame.at(cx, cy);
    return `${i === 0 ? 'M' : 'L'}${px.toFixed(2)},${(-py).toFixed(2)}`;
  });
  frame.page.drawSvgPath(`${d.join(' ')} Z`, { x: 0, y: 0, color: rgb(1, 1, 0.92), opacity: 0.9, borderColor: color, borderWidth: 0.5 });
  lines.forEach((line, i) => {
    const [px, py] = frame.at(left, top + (i * lineHeight + TEXT_SIZE) / frame.height);
    frame.page.drawText(line, { x: px, y: py, size: TEXT_SIZE, font, color, rotate: degrees(frame.rotation) });
  });
}

/** One mark drawn on its page (decision 159's kinds). */
function drawMark(frame: Frame, a: Annotation, font: PDFFont, drawable: (t: string) => string, items: Record<string, string>) {
  const dx = 8 / frame.width;
  const dy = 8 / frame.height;
  const note = (x: number, y: number, marker: string, text: string, color: RGB) => {
    polyline(frame, [[x, y]], color, 5);
    label(frame, x + dx, y - dy / 2, drawable(`${marker} ${text}`.replace(/[\t\r]+/g, ' ')), font, color, frame.width * 0.4);
  };
  switch (a.kind) {
    case 'ink':
      return polyline(frame, a.points, INK[a.color], 1.5);
    case 'box':
      return polyline(
        frame,
        [
          [a.x, a.y],
          [a.x + a.w, a.y],
          [a.x + a.w, a.y + a.h],
          [a.x, a.y + a.h],
        ],
        RED,
        1.5,
        true,
      );
    case 'tick':
      return polyline(
        frame,
        [
          [a.x - dx * 0.6, a.y],
          [a.x - dx * 0.1, a.y + dy * 0.6],
          [a.x + dx * 0.8, a.y - dy * 0.8],
        ],
        INK.green,
        2,
      );
    case 'cross':
      polyline(
        frame,
        [
          [a.x - dx * 0.6, a.y - dy * 0.6],
          [a.x + dx * 0.6, a.y + dy * 0.6],
        ],
        RED,
        2,
      );
      return polyline(
        frame,
        [
          [a.x - dx * 0.6, a.y + dy * 0.6],
          [a.x + dx * 0.6, a.y - dy * 0.6],
        ],
        RED,
        2,
      );
    case 'note':
      return note(a.x, a.y, '•', a.text, RED);
    case 'item':
      return note(a.x, a.y, 'Barème :', items[a.itemId] ?? a.itemId, INK.blue);
    case 'bank':
      return note(a.x, a.y, 'Remarque :', a.text, RED);
  }
}

/** The first page: what the copy is, the grade, the comment, and the correctors when the chapter names them. */
function summaryPage(doc: PDFDocument, data: CorrectedCopyData, fonts: Awaited<ReturnType<typeof embedFonts>>) {
  const page = doc.insertPage(0, A4);
  const { regular, bold, drawable } = fonts;
  let y = A4[1] - 72;
  const write = (text: string, size: number, font: PDFFont, gap = 6) => {
    for (const line of wrap(drawable(text), font, size, A4[0] - 144)) {
      page.drawText(line, { x: 72, y, size, font, color: rgb(0.1, 0.1, 0.2) });
      y -= size * 1.3;
    }
    y -= gap;
  };
  write('Ma copie corrigée', 22, bold, 12);
  write(data.chapterTitle, 14, bold);
  write(data.exerciseTitle, 13, regular);
  if (data.pupil) write(data.pupil, 12, regular, 14);
  write(`Note : ${data.grade}`, 16, bold, 10);
  if (data.comment.trim()) {
    write('Commentaire :', 12, bold, 2);
    write(data.comment, 11, regular, 10);
  }
  if (data.correctors.length > 0)
    write(`${data.correctors.length > 1 ? 'Correcteurs' : 'Correcteur'} : ${data.correctors.join(', ')}`, 11, regular);
}

/** One corrected copy. */
export async function renderCorrectedCopy(data: CorrectedCopyData, source: PDFDocument | null): Promise<Uint8Array> {
  const doc = source ?? (await PDFDocument.create({ updateMetadata: false }));
  const fonts = await embedFonts(doc);
  const pages = doc.getPages();
  for (const a of data.annotations) {
    const page = pages[a.page];
    if (page) drawMark(frameOf(page), a, fonts.regular, fonts.drawable, data.items);
  }
  summaryPage(doc, data, fonts);
  doc.setTitle(`Ma copie corrigée – ${data.chapterTitle} – ${data.exerciseTitle}`);
  doc.setCreator('Olympe');
  doc.setProducer('Olympe');
  return doc.save({ useObjectStreams: false });
}

/** A batch of copies (in a worker thread of the PDF pool), each with its CRC-32; `load` opens a stored copy. */
export async function renderCorrectedCopies(
  copies: readonly CorrectedCopyData[],
  load: (bytes: Uint8Array) => Promise<PDFDocument>,
): Promise<RenderedCopy[]> {
  const out: RenderedCopy[] = [];
  for (const copy of copies) {
    let source: PDFDocument | null = null;
    if (copy.pdf) source = await load(copy.pdf).catch(() => null);
    const bytes = await renderCorrectedCopy(copy, source);
    out.push({ bytes, crc: crc32(bytes) >>> 0 });
  }
  return out;
}
