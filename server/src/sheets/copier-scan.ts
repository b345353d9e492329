import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, PDFName } from 'pdf-lib';
import { soilSheets, type Soiling } from './fake-scan.js';
import { parsePgm } from './raster.js';

/**
 * Scans made the way office copiers make them, with the real tools (tests and bench only; never
 * used by the app). The soiled sheets (fake-scan.ts) are printed to grey by poppler's pdftoppm,
 * turned a little, blurred and noised by ImageMagick, then saved in a copier's encoding:
 * - `dct`: greyscale JPEG (img2pdf), what copiers write in « photo » mode;
 * - `g4`: black and white CCITT Group 4 (ImageMagick TIFF G4, then libtiff's tiff2pdf), the « texte » mode;
 * - `jpx`: JPEG 2000 (OpenJPEG's opj_compress, then img2pdf);
 * - `flate1`: 1-bit Flate (a bilevel PNG through img2pdf);
 * - `jbig2`: JBIG2, one arithmetic-coded generic region a page (encoded here, jbig2Generic: Debian
 *   ships no JBIG2 encoder), from ImageMagick's black and white threshold;
 * - `mrc`: a copier's compact mode, a low-resolution JPEG background and a 1-bit G4 text mask on top;
 * - `vector`: the sheets as a PDF printer would send them, no picture at all.
 * Needs poppler-utils, imagemagick, img2pdf, libtiff-tools, libopenjp2-tools (.ci/run installs them).
 */
export const COPIER_ENCODINGS = ['dct', 'g4', 'jpx', 'flate1', 'jbig2', 'mrc', 'vector'] as const;
export type CopierEncoding = (typeof COPIER_ENCODINGS)[number];

export interface CopierOptions {
  dpi?: number;
  /** ImageMagick Gaussian noise (attenuate); 0 for none. */
  noise?: number;
  /** ImageMagick blur sigma in pixels; 0 for none. */
  blur?: number;
  /** Black and white threshold of the 1-bit encodings, in % of white. */
  threshold?: number;
  seed?: number;
}

const run = promisify(execFile);
const exec = (cmd: string, args: string[]) => run(cmd, args, { maxBuffer: 16 << 20 });

/** The soiled sheets, scanned and saved in `encoding`. */
export async function copierScan(sheets: Uint8Array, pages: Soiling[], encoding: CopierEncoding, opts: CopierOptions = {}): Promise<Uint8Array> {
  const soiled = await soilSheets(sheets, pages, opts.seed);
  if (encoding === 'vector') return soiled;
  const dpi = opts.dpi ?? 150;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-copier-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), soiled);
    await exec('pdftoppm', ['-gray', '-r', String(dpi), path.join(dir, 'in.pdf'), path.join(dir, 'p')]);
    const printed = (await readdir(dir)).filter((f) => f.endsWith('.pgm')).sort();
    const scans: string[] = [];
    for (const [i, f] of printed.entries()) {
      const out = path.join(dir, `s-${String(i).padStart(4, '0')}.pgm`);
      const im = [path.join(dir, f)];
      if (opts.blur) im.push('-blur', `0x${opts.blur}`);
      if (opts.noise) im.push('-seed', String((opts.seed ?? 1) + i), '-attenuate', String(opts.noise), '+noise', 'Gaussian');
      await exec('convert', [...im, '-depth', '8', out]);
      scans.push(out);
    }
    const threshold = `${opts.threshold ?? 55}%`;
    const pdf = path.join(dir, 'out.pdf');
    if (encoding === 'dct') {
      const jpegs = [];
      for (const s of scans) {
        await exec('convert', [s, '-quality', '75', `${s}.jpg`]);
        jpegs.push(`${s}.jpg`);
      }
      await exec('img2pdf', ['--pagesize', 'A4', ...jpegs, '-o', pdf]);
    } else if (encoding === 'g4') {
      await exec('convert', [...scans, '-threshold', threshold, '-density', String(dpi), '-units', 'PixelsPerInch', '-compress', 'Group4', path.join(dir, 'g4.tif')]);
      await exec('tiff2pdf', ['-o', pdf, path.join(dir, 'g4.tif')]);
    } else if (encoding === 'jpx') {
      const jp2s = [];
      for (const s of scans) {
        await exec('opj_compress', ['-i', s, '-o', `${s}.jp2`, '-r', '20']);
        jp2s.push(`${s}.jp2`);
      }
      await exec('img2pdf', ['--pagesize', 'A4', ...jp2s, '-o', pdf]);
    } else if (encoding === 'flate1') {
      const pngs = [];
      for (const s of scans) {
        await exec('convert', [s, '-threshold', threshold, '-type', 'bilevel', `${s}.png`]);
        pngs.push(`${s}.png`);
      }
      await exec('img2pdf', ['--pagesize', 'A4', ...pngs, '-o', pdf]);
    } else {
      return await layered(encoding, scans, threshold, dpi);
    }
    return new Uint8Array(await readFile(pdf));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `jbig2` and `mrc` pages, assembled with pdf-lib around code streams ImageMagick wrote. */
async function layered(encoding: 'jbig2' | 'mrc', scans: string[], threshold: string, dpi: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const s of scans) {
    const { width, height } = parsePgm(await readFile(s));
    await exec('convert', [s, '-threshold', threshold, '-compress', 'Group4', `group4:${s}.g4`]);
    const g4 = new Uint8Array(await readFile(`${s}.g4`));
    await exec('convert', [s, '-threshold', threshold, `${s}.bw.pgm`]);
    const bw = parsePgm(await readFile(`${s}.bw.pgm`));
    const [w, h] = [(width * 72) / dpi, (height * 72) / dpi];
    const leaf = doc.addPage([w, h]).node;
    let ops: string;
    if (encoding === 'jbig2') {
      const image = doc.context.stream(jbig2Generic(width, height, (x, y) => bw.data[y * width + x] < 128), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 1,
        Filter: 'JBIG2Decode',
      });
      leaf.setXObject(PDFName.of('Scan'), doc.context.register(image));
      ops = `q ${w} 0 0 ${h} 0 0 cm /Scan Do Q`;
    } else {
      // The background: the page at a third of the resolution, lightened (paper and pencil shades).
      await exec('convert', [s, '-resize', '33%', '+level', '55%,100%', '-quality', '50', `${s}.bg.jpg`]);
      const background = await doc.embedJpg(await readFile(`${s}.bg.jpg`));
      const mask = doc.context.stream(g4, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        ImageMask: true,
        Filter: 'CCITTFaxDecode',
        DecodeParms: { K: -1, Columns: width, Rows: height, BlackIs1: false },
      });
      leaf.setXObject(PDFName.of('Bg'), background.ref);
      leaf.setXObject(PDFName.of('Mask'), doc.context.register(mask));
      ops = `q ${w} 0 0 ${h} 0 0 cm /Bg Do Q q 0 g ${w} 0 0 ${h} 0 0 cm /Mask Do Q`;
    }
    leaf.addContentStream(doc.context.register(doc.context.stream(ops)));
  }
  return doc.save();
}

/**
 * A JBIG2 embedded stream (ITU T.88, no file header, as PDF holds it) of one page: its page
 * information, one immediate lossless generic region (template 0, the standard adaptive pixels,
 * arithmetic coding: what JBIG2 encoders write for a scanned page).
 * `black(x, y)` gives the page's pixels.
 */
export function jbig2Generic(width: number, height: number, black: (x: number, y: number) => boolean): Uint8Array {
  const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const segment = (num: number, type: number, data: number[] | Uint8Array) => [
    ...u32(num),
    type, // flags: type, 1-byte page association
    0x00, // no referred-to segment
    1, // page 1
    ...u32(data.length),
    ...data,
  ];
  const pageInfo = [...u32(width), ...u32(height), ...u32(0), ...u32(0), 0x00, 0x00, 0x00];
  // Region information (size, origin 0,0, OR), generic region flags (arithmetic, template 0, no
  // TPGDON), then the four adaptive pixels at their nominal places.
  const region = [...u32(width), ...u32(height), ...u32(0), ...u32(0), 0x00, 0x00, 3, 0xff, 0xfd, 0xff, 2, 0xfe, 0xfe, 0xfe];
  const bits = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) bits[y * width + x] = black(x, y) ? 1 : 0;
  const at = (x: number, y: number) => (x >= 0 && x < width && y >= 0 ? bits[y * width + x] : 0);
  // Template 0: 12 fixed neighbours and 4 adaptive ones (T.88 6.2.5.3); any fixed order of the
  // 16 bits is a valid context numbering.
  const neighbours = [
    [-1, -2], [0, -2], [1, -2], [-2, -1], [-1, -1], [0, -1], [1, -1], [2, -1],
    [-4, 0], [-3, 0], [-2, 0], [-1, 0], [3, -1], [-3, -1], [2, -2], [-2, -2],
  ];
  const coder = new MqEncoder(1 << 16);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let cx = 0;
      for (const [dx, dy] of neighbours) cx = (cx << 1) | at(x + dx, y + dy);
      coder.encode(cx, bits[y * width + x]);
    }
  }
  return Uint8Array.from([...segment(0, 48, pageInfo), ...segment(1, 39, [...region, ...coder.finish()])]);
}

/** Qe, next index after an MPS, after an LPS, and whether an LPS switches the MPS (T.88 Table E.1). */
const QE: Array<[number, number, number, number]> = [
  [0x5601, 1, 1, 1], [0x3401, 2, 6, 0], [0x1801, 3, 9, 0], [0x0ac1, 4, 12, 0], [0x0521, 5, 29, 0], [0x0221, 38, 33, 0],
  [0x5601, 7, 6, 1], [0x5401, 8, 14, 0], [0x4801, 9, 14, 0], [0x3801, 10, 14, 0], [0x3001, 11, 17, 0], [0x2401, 12, 18, 0],
  [0x1c01, 13, 20, 0], [0x1601, 29, 21, 0], [0x5601, 15, 14, 1], [0x5401, 16, 14, 0], [0x5101, 17, 15, 0], [0x4801, 18, 16, 0],
  [0x3801, 19, 17, 0], [0x3401, 20, 18, 0], [0x3001, 21, 19, 0], [0x2801, 22, 19, 0], [0x2401, 23, 20, 0], [0x2201, 24, 21, 0],
  [0x1c01, 25, 22, 0], [0x1801, 26, 23, 0], [0x1601, 27, 24, 0], [0x1401, 28, 25, 0], [0x1201, 29, 26, 0], [0x1101, 30, 27, 0],
  [0x0ac1, 31, 28, 0], [0x09c1, 32, 29, 0], [0x08a1, 33, 30, 0], [0x0521, 34, 31, 0], [0x0441, 35, 32, 0], [0x02a1, 36, 33, 0],
  [0x0221, 37, 34, 0], [0x0141, 38, 35, 0], [0x0111, 39, 36, 0], [0x0085, 40, 37, 0], [0x0049, 41, 38, 0], [0x0025, 42, 39, 0],
  [0x0015, 43, 40, 0], [0x0009, 44, 41, 0], [0x0005, 45, 42, 0], [0x0001, 45, 43, 0], [0x5601, 46, 46, 0],
];

/** The MQ arithmetic encoder of JBIG2 (T.88 Annex E.2). */
class MqEncoder {
  private a = 0x8000;
  private c = 0;
  private ct = 12;
  private b = 0;
  private started = false;
  private readonly out: number[] = [];
  private readonly index: Uint8Array;
  private readonly mps: Uint8Array;

  constructor(contexts: number) {
    this.index = new Uint8Array(contexts);
    this.mps = new Uint8Array(contexts);
  }

  encode(cx: number, bit: number): void {
    const [qe, nmps, nlps, sw] = QE[this.index[cx]];
    this.a -= qe;
    if (bit === this.mps[cx]) {
      if ((this.a & 0x8000) !== 0) {
        this.c += qe;
        return;
      }
      if (this.a < qe) this.a = qe;
      else this.c += qe;
      this.index[cx] = nmps;
    } else {
      if (this.a < qe) this.c += qe;
      else this.a = qe;
      if (sw) this.mps[cx] = 1 - this.mps[cx];
      this.index[cx] = nlps;
    }
    do {
      this.a <<= 1;
      this.c <<= 1;
      this.ct--;
      if (this.ct === 0) this.byteOut();
    } while ((this.a & 0x8000) === 0);
  }

  finish(): number[] {
    const tempC = this.c + this.a;
    this.c |= 0xffff;
    if (this.c >= tempC) this.c -= 0x8000;
    this.c *= 2 ** this.ct;
    this.byteOut();
    this.c *= 2 ** this.ct;
    this.byteOut();
    this.emit(this.b);
    if (this.b !== 0xff) this.out.push(0xff);
    this.out.push(0xac);
    return this.out;
  }

  private emit(byte: number) {
    if (this.started) this.out.push(byte);
    this.started = true;
  }

  private byteOut() {
    if (this.b === 0xff) {
      this.emit(this.b);
      this.b = Math.floor(this.c / 2 ** 20) & 0xff;
      this.c %= 2 ** 20;
      this.ct = 7;
    } else if (this.c < 0x8000000) {
      this.emit(this.b);
      this.b = Math.floor(this.c / 2 ** 19) & 0xff;
      this.c %= 2 ** 19;
      this.ct = 8;
    } else {
      this.b++;
      if (this.b === 0xff) {
        this.c %= 0x8000000;
        this.emit(this.b);
        this.b = Math.floor(this.c / 2 ** 20) & 0xff;
        this.c %= 2 ** 20;
        this.ct = 7;
      } else {
        this.emit(this.b);
        this.b = Math.floor(this.c / 2 ** 19) & 0xff;
        this.c %= 2 ** 19;
        this.ct = 8;
      }
    }
  }
}
