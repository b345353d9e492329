import { describe, expect, it } from 'vitest';
import { NAME_BAND, NAME_MASK_MARGIN, QR_BOXES, SHEET_SIZE } from '../sheets/render.js';
import type { CodeCorners, Point } from '../sheets/read-code.js';
import { fitSimilarity, nameMaskPolygons, paintWhite, UNLOCATED_MARGIN } from './mask-names.js';

/** A sheet laid on a picture: `scale` pixels a point, turned `deg` clockwise about the sheet's top-left corner, shifted. */
const laid =
  (scale: number, deg: number, shift: Point) =>
  (p: Point): Point => {
    const a = (deg * Math.PI) / 180;
    return { x: scale * (Math.cos(a) * p.x - Math.sin(a) * p.y) + shift.x, y: scale * (Math.sin(a) * p.x + Math.cos(a) * p.y) + shift.y };
  };
const codeOn = (k: number, place: (p: Point) => Point): CodeCorners => {
  const { left, top, size } = QR_BOXES[k];
  return {
    topLeft: place({ x: left, y: top }),
    topRight: place({ x: left + size, y: top }),
    bottomRight: place({ x: left + size, y: top + size }),
    bottomLeft: place({ x: left, y: top + size }),
  };
};
const near = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

describe('name mask (decision 130)', () => {
  it('fits the exact similarity of a turned, scaled, shifted sheet', () => {
    const place = laid(2, 3, { x: 40, y: -10 });
    const from = [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
      { x: 100, y: 50 },
    ];
    const s = fitSimilarity(from, from.map(place));
    expect(Math.hypot(s.a, s.b)).toBeCloseTo(2, 6);
    expect((Math.atan2(s.b, s.a) * 180) / Math.PI).toBeCloseTo(3, 6);
  });

  it('places the band from either code alone, whichever corner it is printed in', () => {
    const place = laid(150 / 72, -2, { x: 30, y: 25 });
    const size = { width: 1240, height: 1754 };
    const corner = place({ x: NAME_BAND.left - NAME_MASK_MARGIN, y: NAME_BAND.top - NAME_MASK_MARGIN });
    for (const k of [0, 1]) {
      const [polygon] = nameMaskPolygons([codeOn(k, place)], size, 0);
      expect(near(polygon[0], corner)).toBeLessThan(0.01);
    }
    expect(nameMaskPolygons([codeOn(0, place), codeOn(1, place)], size, 0)).toHaveLength(2);
  });

  it('without a code, whitens a wider band of an upright sheet, turned as the sorter turned the page', () => {
    // A page scanned upside down, 1000 × 1414 pixels: the band lies at its bottom, mirrored.
    const [polygon] = nameMaskPolygons([], { width: 1000, height: 1414 }, 180);
    const scale = 1000 / SHEET_SIZE.width;
    expect(
      near(polygon[0], {
        x: 1000 - (NAME_BAND.left - UNLOCATED_MARGIN) * scale,
        y: 1414 - (NAME_BAND.top - UNLOCATED_MARGIN) * (1414 / SHEET_SIZE.height),
      }),
    ).toBeLessThan(0.01);
    const sideways = nameMaskPolygons([], { width: 1414, height: 1000 }, 90)[0];
    // Turned 90° clockwise to be upright: the sheet's top is the page's left side.
    expect(Math.max(...sideways.map((p) => p.x))).toBeLessThan(1414 / 2);
  });

  it('paints white exactly the pixels inside a polygon', () => {
    const img = { width: 10, height: 10, data: new Uint8Array(300) };
    paintWhite(img, [
      { x: 2, y: 2 },
      { x: 6, y: 2 },
      { x: 6, y: 5 },
      { x: 2, y: 5 },
    ]);
    const white = [...Array(100).keys()].filter((i) => img.data[i * 3] === 255 && img.data[i * 3 + 2] === 255);
    expect(white).toEqual([22, 23, 24, 25, 32, 33, 34, 35, 42, 43, 44, 45]);
  });
});
