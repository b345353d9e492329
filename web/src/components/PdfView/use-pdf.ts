import { useEffect, useState, type RefObject } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { fetchPdf } from '../../api/files';

export const PDF_FAILED_TEXT = 'Ce PDF n’a pas pu être affiché.';

/**
 * A stored PDF opened with pdf.js: the bytes come through the one API client (bearer header) and
 * pdf.js is imported only when a page needs it. Destroyed on unmount or path change.
 */
export function usePdfDocument(path: string): { doc: PDFDocumentProxy | null; failed: boolean } {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setDoc(null);
    setFailed(false);
    (async () => {
      try {
        const [bytes, pdfjs] = await Promise.all([fetchPdf(path), import('./pdfjs')]);
        if (cancelled) return;
        loaded = await pdfjs.openPdf(bytes);
        if (cancelled) {
          void loaded.loadingTask.destroy();
          return;
        }
        setDoc(loaded);
      } catch (error) {
        // docs/product.md#spec-8: a PDF render failure is only logged.
        console.error(error);
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      if (loaded) void loaded.loadingTask.destroy();
    };
  }, [path]);
  return { doc, failed };
}

/** An element's width in whole pixels, followed as it changes (debounced when asked). */
export function useElementWidth(ref: RefObject<HTMLElement | null>, debounceMs = 0): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const measure = () => setWidth(Math.floor(element.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (debounceMs <= 0) return measure();
      clearTimeout(timer);
      timer = setTimeout(measure, debounceMs);
    });
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref, debounceMs]);
  return width;
}

export interface PageFit {
  /** Widest the page may be drawn, in CSS pixels. */
  width: number;
  /** Tallest, in CSS pixels (no limit by default). */
  maxHeight?: number;
  /** Degrees added to the page's own rotation. */
  rotation?: number;
}

/**
 * Draws one page on a canvas at the given fit, sharp on high-density screens; drawn again when the
 * fit changes, an unfinished drawing cancelled.
 */
export function usePageCanvas(
  canvasRef: RefObject<HTMLCanvasElement | null>,
  doc: PDFDocumentProxy | null,
  pageNumber: number,
  { width, maxHeight = Infinity, rotation = 0 }: PageFit,
): void {
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !canvas || width <= 0) return;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    let cancelled = false;
    (async () => {
      try {
        const page = await doc.getPage(pageNumber);
        if (cancelled) return;
        const turn = (((page.rotate + rotation) % 360) + 360) % 360;
        const base = page.getViewport({ scale: 1, rotation: turn });
        const scale = Math.min(width / base.width, maxHeight / base.height);
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: scale * ratio, rotation: turn });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.round(viewport.width / ratio)}px`;
        canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
        task = page.render({ canvas, viewport });
        await task.promise;
      } catch (error) {
        if ((error as { name?: string }).name !== 'RenderingCancelledException') console.error(error);
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [canvasRef, doc, pageNumber, width, maxHeight, rotation]);
}
