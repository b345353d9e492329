import { useEffect, useRef, useState } from 'react';
import { Center, Loader, Stack, Text } from '@mantine/core';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { fetchPdf } from '../../api/files';

export interface PdfViewProps {
  /** The stored path, e.g. "pdfs/<id>.pdf". */
  path: string;
  /** Accessible name prefix of the pages ("Copie", "PDF"...). */
  label?: string;
}

const RESIZE_DEBOUNCE_MS = 150;

/**
 * SPEC §2 Viewer: every page drawn on its own canvas, stacked, scaled to the container width and
 * drawn again when that width changes. The bytes come through the one API client (bearer
 * header); pdf.js is imported only when this component mounts.
 */
export function PdfView({ path, label = 'PDF' }: PdfViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [width, setWidth] = useState(0);

  // Load: bytes, then pdf.js, then the document. Destroyed on unmount or path change.
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

  // Container width, debounced: a window resize redraws the pages once it settles.
  useEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const measure = () => setWidth(Math.floor(element.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(measure, RESIZE_DEBOUNCE_MS);
    });
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, []);

  return (
    <div ref={containerRef} style={{ width: '100%' }}>
      {failed ? (
        <Text c="gray.7">Ce PDF n’a pas pu être affiché.</Text>
      ) : !doc ? (
        <Center py="md">
          <Loader role="status" aria-label="Chargement du PDF" />
        </Center>
      ) : (
        <Stack gap="sm">
          {Array.from({ length: doc.numPages }, (_, i) => (
            <PdfPage key={i} doc={doc} pageNumber={i + 1} width={width} label={`${label}, page ${i + 1} sur ${doc.numPages}`} />
          ))}
        </Stack>
      )}
    </div>
  );
}

/** One page on a canvas at the container width (sharp on high-density screens). */
function PdfPage({ doc, pageNumber, width, label }: { doc: PDFDocumentProxy; pageNumber: number; width: number; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width <= 0) return;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    let cancelled = false;
    (async () => {
      try {
        const page = await doc.getPage(pageNumber);
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: (width / base.width) * ratio });
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${width}px`;
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
  }, [doc, pageNumber, width]);

  return <canvas ref={canvasRef} role="img" aria-label={label} style={{ display: 'block', border: '1px solid var(--mantine-color-gray-3)' }} />;
}
