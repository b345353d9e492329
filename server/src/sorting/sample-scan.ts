import jpeg from 'jpeg-js';
import { degrees, PDFDocument, rgb, StandardFonts } from '@cantoo/pdf-lib';

export interface SamplePage {
  /** Written on the page (demo copies, tests). */
  text: string;
  /** Page width in points (A4 595 by default): tests tell pages apart by their width. */
  width?: number;
  /** The page's own /Rotate, as some scanners write it. */
  rotate?: number;
  /** A scanner-like JPEG picture (~100 kB) filling the page, different on every page. */
  picture?: boolean;
}

const PICTURE_VARIANTS = 8;
const pictures = new Map<number, Buffer>();

/**
 * A greyscale "scan": paper-white with noisy lines of ink. Encoding in pure JS is slow, so a few
 * variants are made once and reused; each page still embeds its own copy, as a scanner's would.
 */
function scanPicture(page: number): Buffer {
  const seed = page % PICTURE_VARIANTS;
  let picture = pictures.get(seed);
  if (!picture) pictures.set(seed, (picture = encodePicture(seed + 1)));
  return picture;
}

function encodePicture(seed: number, width = 620, height = 877): Buffer {
  const data = Buffer.alloc(width * height * 4);
  let s = (seed * 2654435761) >>> 0 || 1;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  for (let y = 0; y < height; y++) {
    const ink = y % 24 < 3 && y > 60 && y < height - 60;
    for (let x = 0; x < width; x++) {
      const v = ink && rand() < 0.6 ? 40 + rand() * 60 : 225 + rand() * 30;
      const i = (y * width + x) * 4;
      data[i] = data[i + 1] = data[i + 2] = v;
      data[i + 3] = 255;
    }
  }
  return jpeg.encode({ data, width, height }, 60).data;
}

/**
 * A PDF that looks like a scanned copy (demo data, tests, bench/sorting), built with pdf-lib:
 * never a file on disk, always stored through the file store by the caller.
 */
export async function makeSampleScan(pages: SamplePage[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [i, p] of pages.entries()) {
    const width = p.width ?? 595;
    const page = doc.addPage([width, 842]);
    if (p.picture) {
      const image = await doc.embedJpg(scanPicture(i));
      page.drawImage(image, { x: 0, y: 0, width, height: 842 });
    } else {
      // Ruled lines, so a page without a picture still reads as a sheet of paper.
      for (let y = 720; y > 60; y -= 28)
        page.drawLine({ start: { x: 40, y }, end: { x: width - 40, y }, thickness: 0.5, color: rgb(0.75, 0.8, 0.9) });
    }
    page.drawText(p.text, { x: 40, y: 780, size: 20, font, color: rgb(0.1, 0.1, 0.3) });
    if (p.rotate) page.setRotation(degrees(p.rotate));
  }
  return Buffer.from(await doc.save());
}
