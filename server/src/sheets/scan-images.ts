import { inflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  type PDFDocument,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { readWithin } from '../pdf/inflate-guard.js';
import { toGray, type Gray } from './raster.js';

/**
 * The scanned image of one page, as a scanner PDF holds it: one picture filling the page.
 *
 * Read: DCTDecode (JPEG, what scanners write for greyscale and colour) and FlateDecode samples
 * (8-bit grey/RGB/CMYK or 1-bit, with or without PNG predictors): ZXing reads them as they are,
 * the cheapest way. Everything else (CCITT fax, JBIG2, JPEG 2000, several pictures on a page,
 * pages that are not a picture) and any page whose picture gives no code is rendered by poppler
 * (pdf/render-page.ts, decision 57).
 */
export interface PageImage {
  picture: { kind: 'jpeg'; bytes: Uint8Array } | { kind: 'pixels'; gray: Gray };
  /** Clockwise turn of the picture as the page is displayed (page /Rotate and the drawing matrix). */
  displayTurn: number;
}
/** A scanned A3 page at 600 dpi is 70 megapixels; anything larger is not a scan. */
const MAX_MEGAPIXELS = 80;

/** The largest picture drawn on a page, or null when there is none that can be read. */
export function pageImage(doc: PDFDocument, page: PDFPage): PageImage | null {
  const found = largestImage(doc, page.node.Resources(), 0);
  if (!found) return null;
  let picture: PageImage['picture'] | null;
  try {
    picture = pictureOf(doc, found.stream);
  } catch {
    return null;
  }
  if (!picture) return null;
  const [a, b] = drawingMatrix(page, found.name) ?? [1, 0, 0, 1, 0, 0];
  // Image space x runs along (a, b) in page space (y up): its angle counter-clockwise.
  const ccw = (Math.atan2(b, a) * 180) / Math.PI;
  return { picture, displayTurn: (((page.getRotation().angle - ccw) % 360) + 360) % 360 };
}

/** JPEG bytes as grey pixels in JavaScript, for the few JPEGs (CMYK) the WebAssembly reader refuses. */
export function decodeJpeg(bytes: Uint8Array): Gray {
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_MEGAPIXELS, maxMemoryUsageInMB: 1024 });
  return toGray(decoded.data, decoded.width, decoded.height, 4);
}

interface FoundImage {
  name: string;
  stream: PDFRawStream;
  pixels: number;
}

/** Image XObjects of the page, and those one form deep (some scanners wrap the picture in a form). */
function largestImage(doc: PDFDocument, resources: PDFDict | undefined, depth: number): FoundImage | null {
  const xobjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  if (!xobjects) return null;
  let best: FoundImage | null = null;
  for (const [key, value] of xobjects.entries()) {
    const stream = value instanceof PDFRef ? doc.context.lookup(value) : value;
    if (!(stream instanceof PDFRawStream)) continue;
    const subtype = stream.dict.lookupMaybe(PDFName.of('Subtype'), PDFName);
    let candidate: FoundImage | null = null;
    if (subtype === PDFName.of('Image')) {
      const w = numberOf(stream.dict, 'Width');
      const h = numberOf(stream.dict, 'Height');
      candidate = { name: key.decodeText(), stream, pixels: w * h };
    } else if (subtype === PDFName.of('Form') && depth === 0) {
      const inner = largestImage(doc, stream.dict.lookupMaybe(PDFName.of('Resources'), PDFDict), 1);
      // The form is what the page draws: its matrix is looked up under the form's name.
      if (inner) candidate = { ...inner, name: key.decodeText() };
    }
    if (candidate && (!best || candidate.pixels > best.pixels)) best = candidate;
  }
  return best;
}

const numberOf = (dict: PDFDict, key: string) => dict.lookupMaybe(PDFName.of(key), PDFNumber)?.asNumber() ?? 0;

function filtersOf(dict: PDFDict): string[] {
  const filter = dict.lookup(PDFName.of('Filter'));
  if (filter instanceof PDFName) return [filter.decodeText()];
  if (filter instanceof PDFArray) return filter.asArray().map((f) => (f instanceof PDFName ? f.decodeText() : ''));
  return [];
}

function pictureOf(pdf: PDFDocument, stream: PDFRawStream): PageImage['picture'] | null {
  const { dict } = stream;
  if (dict.lookup(PDFName.of('ImageMask'))?.toString() === 'true') return null;
  const width = numberOf(dict, 'Width');
  const height = numberOf(dict, 'Height');
  if (width < 16 || height < 16 || width * height > MAX_MEGAPIXELS * 1e6) return null;
  const filters = filtersOf(dict);
  const last = filters.at(-1);
  if (last === 'DCTDecode' || last === 'DCT') {
    return filters.length === 1 ? { kind: 'jpeg', bytes: stream.contents } : null;
  }
  let gray: Gray | null = null;
  // The most samples such a picture holds (4 channels of 8 bits, a predictor byte a row): more
  // is a decompression bomb, which would grow the worker's memory outside its heap cap.
  const maxBytes = width * height * 4 + height;
  if (filters.length === 1 && (last === 'FlateDecode' || last === 'Fl')) {
    gray = decodeSamples(pdf, dict, inflateSync(stream.contents, { maxOutputLength: maxBytes }), width, height);
  } else if (filters.length === 0 || ['LZWDecode', 'ASCII85Decode', 'ASCIIHexDecode', 'RunLengthDecode'].includes(last ?? '')) {
    if (dict.lookup(PDFName.of('DecodeParms'))) return null;
    const samples = readWithin(decodePDFRawStream(stream), maxBytes);
    gray = samples && decodeSamples(pdf, dict, samples, width, height, true);
  }
  return gray ? { kind: 'pixels', gray } : null;
}

/** Raw samples: grey, RGB or CMYK at 8 bits, or 1-bit black and white. */
function decodeSamples(pdf: PDFDocument, dict: PDFDict, raw: Uint8Array, width: number, height: number, noPredictor = false): Gray | null {
  const bpc = numberOf(dict, 'BitsPerComponent');
  const channels = channelsOf(pdf, dict.lookup(PDFName.of('ColorSpace')));
  if (!channels || (bpc !== 8 && !(bpc === 1 && channels === 1))) return null;
  const params = noPredictor ? undefined : dict.lookupMaybe(PDFName.of('DecodeParms'), PDFDict);
  const predictor = params ? numberOf(params, 'Predictor') : 1;
  const rowBytes = Math.ceil((width * channels * bpc) / 8);
  let samples = raw;
  if (predictor >= 10) samples = unpredictPng(raw, rowBytes, Math.max(1, (channels * bpc) >> 3), height);
  else if (predictor > 1) return null;
  if (samples.length < rowBytes * height) return null;
  const inverted = dict.lookupMaybe(PDFName.of('Decode'), PDFArray)?.lookupMaybe(0, PDFNumber)?.asNumber() === 1;
  if (bpc === 1) {
    const out = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const bit = (samples[y * rowBytes + (x >> 3)] >> (7 - (x & 7))) & 1;
        out[y * width + x] = bit !== (inverted ? 1 : 0) ? 255 : 0;
      }
    }
    return { width, height, data: out };
  }
  if (channels === 4) {
    // CMYK: ink to light, roughly.
    const rgb = new Uint8Array(width * height * 3);
    for (let i = 0, j = 0; j < rgb.length; i += 4, j += 3) {
      const k = 255 - samples[i + 3];
      rgb[j] = ((255 - samples[i]) * k) / 255;
      rgb[j + 1] = ((255 - samples[i + 1]) * k) / 255;
      rgb[j + 2] = ((255 - samples[i + 2]) * k) / 255;
    }
    return toGray(rgb, width, height, 3);
  }
  const gray = toGray(samples, width, height, channels);
  if (inverted) gray.data = gray.data.map((v) => 255 - v);
  return gray;
}

function channelsOf(pdf: PDFDocument, space: unknown): number | null {
  const resolved = space instanceof PDFRef ? pdf.context.lookup(space) : space;
  if (resolved instanceof PDFName) {
    const name = resolved.decodeText();
    if (name === 'DeviceGray' || name === 'G' || name === 'CalGray') return 1;
    if (name === 'DeviceRGB' || name === 'RGB' || name === 'CalRGB') return 3;
    if (name === 'DeviceCMYK' || name === 'CMYK') return 4;
    return null;
  }
  if (resolved instanceof PDFArray) {
    const family = resolved.lookupMaybe(0, PDFName)?.decodeText();
    if (family === 'ICCBased') {
      const profile = resolved.lookup(1);
      const n = profile instanceof PDFRawStream ? numberOf(profile.dict, 'N') : 0;
      return n === 1 || n === 3 || n === 4 ? n : null;
    }
    if (family === 'CalGray') return 1;
    if (family === 'CalRGB') return 3;
  }
  return null;
}

/** Undoes PNG row filters (PDF predictors 10–15). */
function unpredictPng(data: Uint8Array, rowBytes: number, bpp: number, height: number): Uint8Array {
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const type = data[y * (rowBytes + 1)];
    const src = y * (rowBytes + 1) + 1;
    const dst = y * rowBytes;
    for (let x = 0; x < rowBytes; x++) {
      const left = x >= bpp ? out[dst + x - bpp] : 0;
      const up = y > 0 ? out[dst - rowBytes + x] : 0;
      const upLeft = y > 0 && x >= bpp ? out[dst - rowBytes + x - bpp] : 0;
      const v = data[src + x];
      let p: number;
      if (type === 1) p = left;
      else if (type === 2) p = up;
      else if (type === 3) p = (left + up) >> 1;
      else if (type === 4) {
        const est = left + up - upLeft;
        const da = Math.abs(est - left);
        const db = Math.abs(est - up);
        const dc = Math.abs(est - upLeft);
        p = da <= db && da <= dc ? left : db <= dc ? up : upLeft;
      } else p = 0;
      out[dst + x] = (v + p) & 0xff;
    }
  }
  return out;
}

/**
 * The transformation in force when the page draws `name` (`cm` operators, saved and restored by
 * q/Q), read from the page's content. Null when it cannot be found: the picture is then assumed
 * upright and page-sized.
 */
function drawingMatrix(page: PDFPage, name: string): number[] | null {
  let content: string;
  try {
    content = contentOf(page);
  } catch {
    return null;
  }
  const tokens = content.match(/\/[^\s/[\]()<>{}%]+|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z'"*]+/g) ?? [];
  const stack: number[][] = [];
  let ctm = [1, 0, 0, 1, 0, 0];
  const operands: string[] = [];
  for (const token of tokens) {
    if (token === 'q') stack.push(ctm);
    else if (token === 'Q') ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
    else if (token === 'cm' && operands.length >= 6) ctm = multiply(operands.slice(-6).map(Number), ctm);
    else if (token === 'Do' && operands.at(-1) === `/${name}`) return ctm;
    if (/^[A-Za-z'"*]+$/.test(token) && token !== 'true' && token !== 'false') operands.length = 0;
    else operands.push(token);
  }
  return null;
}

/** m × n for PDF matrices [a b c d e f]. */
function multiply(m: number[], n: number[]): number[] {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function contentOf(page: PDFPage): string {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => page.doc.context.lookup(r)) : [contents];
  let text = '';
  for (const s of streams) {
    if (!(s instanceof PDFRawStream)) continue;
    // Scanner pages hold a few operators: more means a page that is not a plain picture. Read up to
    // that and no further (decision 132): a content stream may inflate to gigabytes.
    const bytes = readWithin(decodePDFRawStream(s), 200_000);
    if (!bytes) throw new Error('content too large');
    text += `${Buffer.from(bytes).toString('latin1')}\n`;
  }
  return text;
}
