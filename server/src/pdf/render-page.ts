import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PDFDocument } from '@cantoo/pdf-lib';
import { parsePgm, parsePpm, type Gray, type Rgb } from '../sheets/raster.js';

/**
 * Pages rendered to grey pixels by poppler's `pdftoppm` (Debian package poppler-utils), a child
 * process per page (decision 57): every encoding a copier writes (DCT, JPEG 2000, CCITT G3/G4,
 * JBIG2 with globals, Flate/LZW at any depth, masks, several pictures a page), vector pages,
 * `/Rotate`, crop and media boxes. The page comes out as displayed, so a code's turn in the
 * pixels is its turn on the displayed page.
 *
 * Each render is capped in time, address space and pixels, and runs niced: a hostile page costs
 * one short-lived process, never the API's event loop (the caller is a PDF worker thread).
 */
export const renderLimits = {
  /** Resolution of a page read for its codes: a code module is ~5 px at 150 dpi. */
  dpi: 150,
  /** Pixels of one rendered page at most (an A3 page at 150 dpi is 4.4 MP): bigger pages render at a lower resolution. */
  maxPixels: 12e6,
  /** Wall time of one page's render. */
  timeoutMs: 30_000,
  /** Address space of the renderer (ulimit -v): a JPEG 2000 bomb fails inside it. */
  memoryMb: 1024,
  niceness: 10,
};

export class RenderError extends Error {}

/** A scan written once to a temporary file, rendered page by page, then removed. */
export interface RenderSource {
  file: string;
  close(): Promise<void>;
}

export async function openRenderSource(bytes: Uint8Array): Promise<RenderSource> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'olympe-render-'));
  const file = path.join(dir, 'scan.pdf');
  await writeFile(file, bytes);
  return { file, close: () => rm(dir, { recursive: true, force: true }) };
}

/** The resolution that keeps a page of `widthPt` × `heightPt` points within the pixel cap. */
export function dpiFor(widthPt: number, heightPt: number, wanted = renderLimits.dpi): number {
  const squareInches = (Math.abs(widthPt) / 72) * (Math.abs(heightPt) / 72);
  if (!(squareInches > 0)) return wanted;
  return Math.max(10, Math.min(wanted, Math.floor(Math.sqrt(renderLimits.maxPixels / squareInches))));
}

/** What a capped child process gave back: its exit status (null when killed), standard output and error. */
export interface CappedRun {
  status: number | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a poppler or qpdf command in a child process capped like the renderer (renderLimits: address
 * space, wall time, niceness). ulimit in a shell, then exec: no shell stays between us and the
 * program; arguments are never interpreted by the shell ("$@"). Never rejects: the caller reads the status.
 */
export function runCapped(program: string, args: string[], maxBuffer: number): Promise<CappedRun> {
  const script = `ulimit -v ${renderLimits.memoryMb * 1024} && exec nice -n ${renderLimits.niceness} ${program} "$@"`;
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', script, program, ...args],
      { encoding: 'buffer', timeout: renderLimits.timeoutMs, killSignal: 'SIGKILL', maxBuffer },
      (err, stdout, stderr) => {
        const status = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ status, stdout, stderr: String(stderr) });
      },
    );
  });
}

/** Runs the capped pdftoppm on one page; its standard output (the picture). */
async function pdftoppm(file: string, index: number, options: string[], what: string): Promise<Buffer> {
  const page = String(index + 1);
  const run = await runCapped('pdftoppm', [...options, '-f', page, '-l', page, file], 3 * renderLimits.maxPixels + 4096);
  if (run.status !== 0) throw new RenderError(`pdftoppm failed on page ${page}: ${run.stderr.split('\n')[0] || `status ${run.status}`}`);
  if (run.stdout.length === 0) throw new RenderError(`pdftoppm gave no ${what} for page ${page}`);
  return run.stdout;
}

/**
 * Page `index` (0-based) of the PDF at `file`, in grey, as displayed. Throws RenderError when
 * poppler cannot render it or passes a cap.
 */
export async function renderPage(file: string, index: number, dpi: number): Promise<Gray> {
  const stdout = await pdftoppm(file, index, ['-gray', '-r', String(dpi)], 'picture');
  try {
    return parsePgm(stdout);
  } catch (e) {
    throw new RenderError(`pdftoppm gave no picture for page ${index + 1}: ${(e as Error).message}`);
  }
}

/**
 * Page `index` (0-based) of the PDF at `file`, in colour, as displayed, as a JPEG: a page that cannot
 * be copied as it is goes into a pupil's copy as this picture (decision 107). Throws RenderError.
 */
export function renderPageJpeg(file: string, index: number, dpi: number): Promise<Buffer> {
  return pdftoppm(file, index, ['-jpeg', '-jpegopt', 'quality=85', '-r', String(dpi)], 'JPEG');
}

/**
 * Page `index` (0-based) of the PDF at `file`, in colour, as displayed, as raw RGB samples (decision 130: a copy's
 * page whose name is masked in its pixels). Annotations are left out: a copy's page is its scan's picture.
 * Throws RenderError.
 */
export async function renderPageRgb(file: string, index: number, dpi: number): Promise<Rgb> {
  const stdout = await pdftoppm(file, index, ['-hide-annotations', '-r', String(dpi)], 'picture');
  try {
    return parsePpm(stdout);
  } catch (e) {
    throw new RenderError(`pdftoppm gave no picture for page ${index + 1}: ${(e as Error).message}`);
  }
}

/**
 * RGB samples as a JPEG of `dpi` (decision 130), at poppler's quality (85), encoded by sharp (libvips, native,
 * already the photos' encoder: decision 140). Imported on first use: this module is loaded on the event loop's
 * thread too (rewrite.ts), where no picture is encoded.
 */
export async function jpegOfPixels(rgb: Rgb, dpi: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withDensity(dpi)
    .toBuffer();
}

/** Sizes in points of the pages poppler finds in the PDF at `file` (pdfinfo, capped like pdftoppm). Throws RenderError. */
export async function popplerPageSizes(file: string, maxPages: number): Promise<Array<[number, number]>> {
  const run = await runCapped('pdfinfo', ['-f', '1', '-l', String(maxPages), file], 1 << 20);
  if (run.status !== 0) throw new RenderError(`pdfinfo failed: ${run.stderr.split('\n')[0] || `status ${run.status}`}`);
  return [...run.stdout.toString('latin1').matchAll(/^Page\s+\d+\s+size:\s+([\d.]+) x ([\d.]+) pts/gm)].map(
    (m) => [Number(m[1]), Number(m[2])] as [number, number],
  );
}

/** Page `index`'s crop box size in points; A4 when a damaged page tree hides it (« Parent.ascend is not a function »). */
export function cropSizeOrA4(doc: PDFDocument, index: number): [number, number] {
  try {
    const box = doc.getPage(index).getCropBox();
    return [box.width, box.height];
  } catch {
    return [595, 842];
  }
}
