import { useEffect, useRef, useState } from 'react';
import { Center, Loader, Text } from '@mantine/core';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { fetchPdf } from '../../api/files';

/** Loads a stored PDF with pdf.js, imported only when the sorting page needs it. */
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
        const [bytes, pdfjs] = await Promise.all([fetchPdf(path), import('../../components/PdfView/pdfjs')]);
        if (cancelled) return;
        loaded = await pdfjs.openPdf(bytes);
        if (cancelled) {
          void loaded.destroy();
          return;
        }
        setDoc(loaded);
      } catch (error) {
        // SPEC §8: a PDF render failure is only logged.
        console.error(error);
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      if (loaded) void loaded.destroy();
    };
  }, [path]);
  return { doc, failed };
}

/** Pages fit the column's width and this share of the window's height. */
const MAX_HEIGHT_SHARE = 0.78;

/**
 * One page of the scan, large, turned by the sorter's rotation on top of the page's own (as the
 * server will store it): pdf.js draws it at that rotation, so what is seen is what is saved.
 */
export function PageView({ doc, pageNumber, rotation, label }: { doc: PDFDocumentProxy | null; pageNumber: number; rotation: number; label: string }) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const measure = () => setWidth(Math.floor(box.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

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
        const maxHeight = window.innerHeight * MAX_HEIGHT_SHARE;
        const scale = Math.min(width / base.width, maxHeight / base.height);
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: scale * ratio, rotation: turn });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
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
  }, [doc, pageNumber, rotation, width]);

  return (
    <div ref={boxRef} style={{ width: '100%', display: 'flex', justifyContent: 'center' }}>
      {doc ? (
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={label}
          data-rotation={rotation}
          style={{ display: 'block', border: '1px solid var(--mantine-color-gray-4)', background: 'white' }}
        />
      ) : (
        <Center py="xl" mih={200}>
          <Loader role="status" aria-label="Chargement du PDF" />
        </Center>
      )}
    </div>
  );
}

export function PdfFailed() {
  return <Text c="gray.7">Ce PDF n’a pas pu être affiché.</Text>;
}
