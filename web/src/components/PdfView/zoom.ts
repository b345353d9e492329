/**
 * Zoom of a PDF copy, as a factor of the fit-to-width size (1 = the page as wide as the view).
 * Steps a corrector can reach with « + » and « − »; capped at 400 % so a page canvas stays within
 * what a phone's browser draws (an A4 page at 4 × 375 px × a device ratio of 3 is ~4,500 px wide).
 */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
export const FIT_WIDTH = 1;

/** The next step above the current zoom (the zoom itself when already at the top). */
export function zoomIn(zoom: number): number {
  return ZOOM_STEPS.find((step) => step > zoom + 1e-9) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1];
}

/** The next step below the current zoom (the zoom itself when already at the bottom). */
export function zoomOut(zoom: number): number {
  return [...ZOOM_STEPS].reverse().find((step) => step < zoom - 1e-9) ?? ZOOM_STEPS[0];
}

/** « 125 % » (French typography: a narrow no-break space before the sign). */
export function formatZoom(zoom: number): string {
  return `${Math.round(zoom * 100)}\u202f%`;
}

/** Width in CSS pixels a page is drawn at: the view's width times the zoom, whole pixels. */
export function pageWidth(viewWidth: number, zoom: number): number {
  return Math.max(0, Math.floor(viewWidth * zoom));
}

/** A zoom kept within the buttons' range (ZOOM_STEPS' ends). */
export function clampZoom(zoom: number): number {
  return Math.min(ZOOM_STEPS[ZOOM_STEPS.length - 1], Math.max(ZOOM_STEPS[0], zoom));
}

/**
 * The zoom a two-finger pinch reaches: the zoom at its start times how much the fingers moved apart, within
 * the buttons' range, in whole percents; within 5 % of the width it snaps to the width (« Ajuster à la largeur »).
 */
export function pinchZoom(startZoom: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return startZoom;
  const zoom = clampZoom(Math.round((startZoom * distance * 100) / startDistance) / 100);
  return Math.abs(zoom - FIT_WIDTH) < 0.05 ? FIT_WIDTH : zoom;
}
