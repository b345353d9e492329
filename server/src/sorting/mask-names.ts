import { NAME_BAND, NAME_MASK_MARGIN, QR_BOXES, SHEET_SIZE } from '../sheets/render.js';
import { findSheetCodes, type CodeCorners, type Point } from '../sheets/read-code.js';
import { toGray, type Rgb } from '../sheets/raster.js';
import { jpegOfPixels, renderPageRgb } from '../pdf/render-page.js';

/**
 * Decision 130: under anonymous correction, every page of a sorted copy is its scan's picture with the name
 * band painted white in the pixels themselves, so nothing of the name is left in the file a corrector opens.
 * Where the band lies comes from the sheet codes read on that page (their corners give the sheet's position,
 * scale and turn on the scan); a page without a readable code gets a wider band, placed as on an upright A4 sheet.
 */

/** A polygon in a picture's pixels. */
export type Polygon = Point[];

/** Resolution of a masked page: that of a page split as its picture (decision 107), a JPEG of ~0.1–0.4 MB. */
export const MASKED_PAGE_DPI = 150;
/** White around the band on a page whose codes were not read: its place is then only guessed (decision 130). */
export const UNLOCATED_MARGIN = 24;

/** pixel = [a −b; b a]·point + t: a sheet point (points, from its top-left corner, y down) on the picture. */
interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

const apply = (s: Similarity, p: Point): Point => ({ x: s.a * p.x - s.b * p.y + s.tx, y: s.b * p.x + s.a * p.y + s.ty });

/** The least-squares similarity (turn, scale, shift; no mirror) taking `from` onto `to`. */
export function fitSimilarity(from: Point[], to: Point[]): Similarity {
  const n = from.length;
  const mean = (ps: Point[]) => ({ x: ps.reduce((s, p) => s + p.x, 0) / n, y: ps.reduce((s, p) => s + p.y, 0) / n });
  const [f, t] = [mean(from), mean(to)];
  let [num1, num2, den] = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const [x, y, X, Y] = [from[i].x - f.x, from[i].y - f.y, to[i].x - t.x, to[i].y - t.y];
    num1 += x * X + y * Y;
    num2 += x * Y - y * X;
    den += x * x + y * y;
  }
  const a = num1 / den;
  const b = num2 / den;
  return { a, b, tx: t.x - a * f.x + b * f.y, ty: t.y - b * f.x - a * f.y };
}

/** The corners of printed code `k` (render.ts QR_BOXES) in sheet points, in the order of CodeCorners. */
function boxCorners(k: number): Point[] {
  const { left, top, size } = QR_BOXES[k];
  return [
    { x: left, y: top },
    { x: left + size, y: top },
    { x: left + size, y: top + size },
    { x: left, y: top + size },
  ];
}

const cornerList = (c: CodeCorners): Point[] => [c.topLeft, c.topRight, c.bottomRight, c.bottomLeft];

/** The name band with `margin` points around it, in sheet points, clockwise from its top-left corner. */
function band(margin: number): Point[] {
  const { left, top, right, bottom } = NAME_BAND;
  return [
    { x: left - margin, y: top - margin },
    { x: right + margin, y: top - margin },
    { x: right + margin, y: bottom + margin },
    { x: left - margin, y: bottom + margin },
  ];
}

/**
 * Where a sheet code puts the sheet on a picture of `size` pixels: the same code is printed in two corners
 * (decision 110), so both placements are tried and the one that puts the sheet's centre nearer the picture's
 * centre is kept (the two are half a page apart).
 */
function placeSheet(corners: CodeCorners, size: { width: number; height: number }): Similarity {
  const centre = { x: SHEET_SIZE.width / 2, y: SHEET_SIZE.height / 2 };
  const fits = QR_BOXES.map((_, k) => fitSimilarity(boxCorners(k), cornerList(corners)));
  const off = (s: Similarity) => {
    const c = apply(s, centre);
    return Math.hypot(c.x - size.width / 2, c.y - size.height / 2);
  };
  return fits.reduce((best, s) => (off(s) < off(best) ? s : best));
}

/**
 * The polygons to paint white on a page's picture (`size` pixels, the page as displayed): the band
 * placed by each code read (two codes agree to within a pixel or two; a stray one only whitens more), or, with
 * no code, the band of an upright A4 sheet filling the page, which `rotation` (clockwise degrees, the sorter's)
 * turns upright, with UNLOCATED_MARGIN.
 */
export function nameMaskPolygons(codes: CodeCorners[], size: { width: number; height: number }, rotation: number): Polygon[] {
  if (codes.length > 0) return codes.map((c) => band(NAME_MASK_MARGIN).map((p) => apply(placeSheet(c, size), p)));
  const turn = (((Math.round(rotation / 90) * 90) % 360) + 360) % 360;
  const sideways = turn === 90 || turn === 270;
  // The upright page's size in pixels, and the sheet's points scaled onto it.
  const [uw, uh] = sideways ? [size.height, size.width] : [size.width, size.height];
  const [sx, sy] = [uw / SHEET_SIZE.width, uh / SHEET_SIZE.height];
  // Turning the displayed page `turn` clockwise makes it upright: an upright point back on the displayed page.
  const displayed = ({ x, y }: Point): Point => {
    if (turn === 90) return { x: y, y: size.height - x };
    if (turn === 180) return { x: size.width - x, y: size.height - y };
    if (turn === 270) return { x: size.width - y, y: x };
    return { x, y };
  };
  return [band(UNLOCATED_MARGIN).map((p) => displayed({ x: p.x * sx, y: p.y * sy }))];
}

/** Paints a convex polygon white in an RGB raster (every pixel whose centre is inside). */
export function paintWhite(img: Rgb, polygon: Polygon): void {
  const ys = polygon.map((p) => p.y);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(img.height - 1, Math.ceil(Math.max(...ys)));
  for (let y = y0; y <= y1; y++) {
    const cy = y + 0.5;
    let [from, to] = [Infinity, -Infinity];
    // Where the row crosses the polygon's edges: a convex polygon spans one run a row.
    for (let i = 0; i < polygon.length; i++) {
      const p = polygon[i];
      const q = polygon[(i + 1) % polygon.length];
      if ((p.y <= cy && q.y > cy) || (q.y <= cy && p.y > cy)) {
        const x = p.x + ((cy - p.y) * (q.x - p.x)) / (q.y - p.y);
        from = Math.min(from, x);
        to = Math.max(to, x);
      }
    }
    if (from > to) continue;
    const x0 = Math.max(0, Math.ceil(from - 0.5));
    const x1 = Math.min(img.width - 1, Math.floor(to - 0.5));
    if (x1 >= x0) img.data.fill(255, (y * img.width + x0) * 3, (y * img.width + x1 + 1) * 3);
  }
}

const looksLikeSheetCode = (bytes: Uint8Array) => bytes[0] === 0x11 || bytes[0] === 0x12;

/**
 * Page `index` of the scan at `file` as displayed, its name band painted white, as a JPEG at MASKED_PAGE_DPI
 * (run in a PDF worker, pdf/pdf-worker.ts). `rotation`: the sorter's turn of the page. Throws RenderError when
 * poppler cannot draw the page.
 */
export async function maskedPagePicture(
  file: string,
  index: number,
  dpi: number,
  rotation: number,
): Promise<{ jpeg: Buffer; dpi: number }> {
  const rgb = await renderPageRgb(file, index, dpi);
  const gray = toGray(rgb.data, rgb.width, rgb.height, 3);
  // Only the geometry is used: no secret is needed, and any sheet code (another chapter's too) places the sheet.
  const codes = await findSheetCodes({ picture: { kind: 'pixels', gray }, displayTurn: 0 }, looksLikeSheetCode);
  for (const polygon of nameMaskPolygons(
    codes.map((c) => c.corners),
    rgb,
    rotation,
  ))
    paintWhite(rgb, polygon);
  return { jpeg: await jpegOfPixels(rgb, dpi), dpi };
}
