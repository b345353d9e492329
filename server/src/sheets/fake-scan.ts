import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { parsePgm, type Gray } from './raster.js';
import { QR_BOX } from './render.js';

/**
 * Scanner-like PDFs made from generated sheets, for tests and the bench (never used by the app).
 * The sheet pages are turned, skewed, torn and soiled in PDF, printed to JPEG by poppler's
 * pdftoppm (Debian package poppler-utils, native and fast), then put one JPEG per page into a
 * PDF, as a copier's "scan to PDF" does.
 */

const run = promisify(execFile);

export interface Soiling {
  /** Index of the page in the sheets PDF (0-based). */
  page: number;
  /** Clockwise quarter turn of the sheet on the scanner. */
  turn?: 0 | 90 | 180 | 270;
  /** Small extra clockwise rotation in degrees (a sheet fed crooked). */
  skew?: number;
  /** Grey noise laid over the page, as a fraction of its ink (0.2 = ±25 grey levels). */
  noise?: number;
  /** The code torn off (its corner painted white). */
  torn?: boolean;
  /** Pen marks: a few dark strokes across the answer area. */
  scribbles?: boolean;
}

/** The soiled sheets as a vector PDF, one page per entry of `pages`. */
export async function soilSheets(sheets: Uint8Array, pages: Soiling[], seed = 1): Promise<Uint8Array> {
  const src = await PDFDocument.load(sheets);
  const out = await PDFDocument.create();
  const embedded = await out.embedPages(pages.map((p) => src.getPage(p.page)));
  const noise = noiseImage(out, 600, 850, seed);
  for (const [i, s] of pages.entries()) {
    const { width: w, height: h } = src.getPage(s.page).getSize();
    const sideways = s.turn === 90 || s.turn === 270;
    const [pw, ph] = sideways ? [h, w] : [w, h];
    const page = out.addPage([pw, ph]);
    page.node.setXObject(PDFName.of('Sheet'), embedded[i].ref);
    page.node.setXObject(PDFName.of('Noise'), noise);
    page.node.setExtGState(PDFName.of('Soil'), out.context.obj({ ca: s.noise ?? 0, CA: s.noise ?? 0 }));
    // Clockwise on paper is a negative angle in PDF space (y up); turn about the page centres.
    const a = (-((s.turn ?? 0) + (s.skew ?? 0)) * Math.PI) / 180;
    const [cos, sin] = [Math.cos(a), Math.sin(a)];
    const tx = pw / 2 - (cos * w) / 2 + (sin * h) / 2;
    const ty = ph / 2 - (sin * w) / 2 - (cos * h) / 2;
    let ops = `q 1 g 0 0 ${pw} ${ph} re f Q\nq ${[cos, sin, -sin, cos, tx, ty].map((v) => v.toFixed(4)).join(' ')} cm /Sheet Do\n`;
    if (s.torn) {
      const pad = 6;
      ops += `1 g ${QR_BOX.left - pad} ${h - QR_BOX.top - QR_BOX.size - pad} ${QR_BOX.size + 2 * pad} ${QR_BOX.size + 2 * pad} re f\n`;
    }
    if (s.scribbles) ops += `0.1 G 2 w 80 200 m 500 600 l 120 650 m 480 150 l 60 400 m 540 420 l S\n`;
    ops += `Q\n`;
    if (s.noise) ops += `q /Soil gs ${pw} 0 0 ${ph} 0 0 cm /Noise Do Q\n`;
    page.node.addContentStream(out.context.register(out.context.stream(ops)));
  }
  return out.save();
}

/** Random grey pixels, drawn over a page at a low opacity. */
function noiseImage(doc: PDFDocument, width: number, height: number, seed: number) {
  const random = mulberry32(seed);
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = (random() * 256) | 0;
  return doc.context.register(
    doc.context.flateStream(data, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 8 }),
  );
}

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every page printed by pdftoppm at `dpi`, as greyscale JPEG files or raw grey pixels. */
async function printWith<T>(pdf: Uint8Array, args: string[], ext: string, parse: (buf: Buffer) => T): Promise<T[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-scan-'));
  try {
    const input = path.join(dir, 'in.pdf');
    await writeFile(input, pdf);
    await run('pdftoppm', ['-gray', ...args, input, path.join(dir, 'p')], { maxBuffer: 1 << 20 });
    const files = (await readdir(dir)).filter((f) => f.endsWith(ext)).sort();
    return Promise.all(files.map(async (f) => parse(await readFile(path.join(dir, f)))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const printJpeg = (pdf: Uint8Array, dpi: number, quality = 75) =>
  printWith(pdf, ['-r', String(dpi), '-jpeg', '-jpegopt', `quality=${quality}`], '.jpg', (b) => b);

export const printGray = (pdf: Uint8Array, dpi: number) => printWith(pdf, ['-r', String(dpi)], '.pgm', parsePgm);


/**
 * One picture per page, the page sized to the picture at `dpi`: JPEG as copiers write, or raw
 * grey samples compressed with Flate (lossless scanner modes).
 */
export async function scannerPdf(pictures: Array<Buffer | Gray>, dpi: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const picture of pictures) {
    if (Buffer.isBuffer(picture)) {
      const image = await doc.embedJpg(picture);
      const [w, h] = [(image.width * 72) / dpi, (image.height * 72) / dpi];
      doc.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
      continue;
    }
    const [w, h] = [(picture.width * 72) / dpi, (picture.height * 72) / dpi];
    const image: PDFRawStream = doc.context.flateStream(picture.data, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: picture.width,
      Height: picture.height,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
    });
    const leaf = doc.addPage([w, h]).node;
    leaf.setXObject(PDFName.of('Scan'), doc.context.register(image));
    leaf.addContentStream(doc.context.register(doc.context.stream(`q ${w} 0 0 ${h} 0 0 cm /Scan Do Q`)));
  }
  return doc.save();
}

/** Sheets → soiled → printed to JPEG at `dpi` → a scanner's PDF. */
export async function fakeScan(sheets: Uint8Array, pages: Soiling[], opts: { dpi?: number; quality?: number; seed?: number } = {}): Promise<Uint8Array> {
  const dpi = opts.dpi ?? 150;
  const soiled = await soilSheets(sheets, pages, opts.seed);
  return scannerPdf(await printJpeg(soiled, dpi, opts.quality), dpi);
}
