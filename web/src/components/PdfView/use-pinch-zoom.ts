import { useEffect, useRef, type RefObject } from 'react';
import { pinchZoom } from './zoom';

interface Pinch {
  startZoom: number;
  startDistance: number;
  zoom: number;
  /** The fingers' midpoint at the start, in the view's viewport coordinates. */
  midX: number;
  midY: number;
}

/** Where a zoom change should keep a point of the pages in place (viewport coordinates). */
export interface ZoomAnchor {
  x: number;
  y: number;
  ratio: number;
}

const distance = (touches: TouchList) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);

/**
 * Decision 65: two-finger pinch on a phone zooms the pages within the buttons' range. During the gesture the
 * pages are only scaled by CSS (no drawing per finger move); when a finger lifts, `onZoom` sets the zoom and
 * the pages are drawn again at their new size, sharp. One finger still scrolls as the browser does; only a
 * two-finger gesture is taken from the browser (its own pinch would zoom the whole app, sidebar included).
 * Touch events, not pointer events: a browser that starts panning cancels the pointers of a pinch.
 */
export function usePinchZoom(
  viewRef: RefObject<HTMLElement | null>,
  pagesRef: RefObject<HTMLElement | null>,
  { zoom, ready, onZoom }: { zoom: number; ready: boolean; onZoom: (zoom: number, anchor: ZoomAnchor) => void },
): void {
  // The latest zoom and callback, read by listeners added once.
  const latest = useRef({ zoom, onZoom });
  latest.current = { zoom, onZoom };

  useEffect(() => {
    const view = viewRef.current;
    if (!ready || !view) return;
    let pinch: Pinch | null = null;

    const preview = (scale: number | null) => {
      const pages = pagesRef.current;
      if (!pages || !pinch) return;
      if (scale === null) {
        pages.style.transform = '';
        pages.style.transformOrigin = '';
        return;
      }
      const box = pages.getBoundingClientRect();
      pages.style.transformOrigin = `${pinch.midX - box.left}px ${pinch.midY - box.top}px`;
      pages.style.transform = `scale(${scale})`;
    };

    const start = (event: TouchEvent) => {
      if (event.touches.length !== 2) return;
      event.preventDefault();
      const startZoom = latest.current.zoom;
      pinch = {
        startZoom,
        startDistance: distance(event.touches),
        zoom: startZoom,
        midX: (event.touches[0].clientX + event.touches[1].clientX) / 2,
        midY: (event.touches[0].clientY + event.touches[1].clientY) / 2,
      };
    };
    const move = (event: TouchEvent) => {
      if (!pinch || event.touches.length < 2) return;
      event.preventDefault();
      pinch.zoom = pinchZoom(pinch.startZoom, pinch.startDistance, distance(event.touches));
      preview(pinch.zoom / pinch.startZoom);
    };
    const end = (event: TouchEvent) => {
      if (!pinch || event.touches.length >= 2) return;
      const done = pinch;
      preview(null);
      pinch = null;
      if (done.zoom !== done.startZoom) {
        latest.current.onZoom(done.zoom, { x: done.midX, y: done.midY, ratio: done.zoom / done.startZoom });
      }
    };

    // Not passive: a two-finger move must not also zoom or scroll the whole page.
    view.addEventListener('touchstart', start, { passive: false });
    view.addEventListener('touchmove', move, { passive: false });
    view.addEventListener('touchend', end);
    view.addEventListener('touchcancel', end);
    return () => {
      view.removeEventListener('touchstart', start);
      view.removeEventListener('touchmove', move);
      view.removeEventListener('touchend', end);
      view.removeEventListener('touchcancel', end);
    };
  }, [viewRef, pagesRef, ready]);
}
