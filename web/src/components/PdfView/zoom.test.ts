import { describe, expect, it } from 'vitest';
import { FIT_WIDTH, formatZoom, pageWidth, pinchZoom, zoomIn, zoomOut, ZOOM_STEPS } from './zoom';

describe('PDF zoom', () => {
  it('goes up and down by steps and stops at both ends', () => {
    expect(zoomIn(FIT_WIDTH)).toBe(1.25);
    expect(zoomOut(FIT_WIDTH)).toBe(0.75);
    expect(zoomIn(4)).toBe(4);
    expect(zoomOut(0.5)).toBe(0.5);
    // From a zoom between two steps, the neighbouring steps.
    expect(zoomIn(1.1)).toBe(1.25);
    expect(zoomOut(1.1)).toBe(1);
    let z = 0.5;
    const seen = [z];
    while (zoomIn(z) !== z) seen.push((z = zoomIn(z)));
    expect(seen).toEqual([...ZOOM_STEPS]);
  });

  it('says the zoom in French and draws pages at the zoomed width', () => {
    expect(formatZoom(1.25)).toBe('125\u202f%');
    expect(pageWidth(343.6, 2)).toBe(687);
    expect(pageWidth(0, 3)).toBe(0);
  });

  it('follows a pinch by how far the fingers move apart, within the range of the buttons', () => {
    expect(pinchZoom(1, 100, 200)).toBe(2);
    expect(pinchZoom(2, 200, 100)).toBe(1);
    expect(pinchZoom(1, 100, 133.3)).toBe(1.33);
    // The same ends as « Zoom avant » and « Zoom arrière ».
    expect(pinchZoom(2, 100, 1000)).toBe(4);
    expect(pinchZoom(1, 100, 10)).toBe(0.5);
    // Near the width, the width.
    expect(pinchZoom(1.5, 100, 68)).toBe(FIT_WIDTH);
    expect(pinchZoom(1.5, 0, 68)).toBe(1.5);
  });
});
