import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowAutofitWidth, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { PDF_FAILED_TEXT, useElementWidth, usePageCanvas, usePdfDocument } from './use-pdf';
import { usePinchZoom, type ZoomAnchor } from './use-pinch-zoom';
import { FIT_WIDTH, formatZoom, pageWidth, zoomIn, zoomOut, ZOOM_STEPS } from './zoom';

export interface PdfViewProps {
  /** The stored path, e.g. "pdfs/<id>.pdf". */
  path: string;
  /** Accessible name prefix of the pages ("Copie", "PDF"...). */
  label?: string;
  /** Drawn over each page (0-based), in the page's box: the corrector's marks (decision 159), a returned copy's (162). */
  overlay?: (page: number) => ReactNode;
  /** Told the number of pages once the document is read. */
  onPages?: (pages: number) => void;
}

const RESIZE_DEBOUNCE_MS = 150;

/**
 * docs/product.md#spec-2 Viewer: every page drawn on its own canvas, stacked, scaled to the container width and
 * drawn again when that width changes. The bytes come through the one API client (bearer
 * header); pdf.js is imported only when this component mounts.
 *
 * Decision 65: zoom in and out and « Ajuster à la largeur » (buttons big enough for a finger). A zoom
 * draws the pages again at the new size, so handwriting stays sharp instead of a stretched bitmap;
 * past the width the pages scroll sideways in a focusable region (arrows scroll it).
 * Decision 65: on a phone, two fingers pinch the pages within the same range; the point between the fingers
 * stays where it was.
 */
export function PdfView({ path, label = 'PDF', overlay, onPages }: PdfViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const { doc, failed } = usePdfDocument(path);
  const [zoom, setZoom] = useState<number>(FIT_WIDTH);
  // A window resize redraws the pages once it settles.
  const width = useElementWidth(containerRef, RESIZE_DEBOUNCE_MS);
  const drawn = pageWidth(width, zoom);
  const viewRef = useRef<HTMLDivElement>(null);
  const pagesRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<ZoomAnchor | null>(null);
  usePinchZoom(viewRef, pagesRef, {
    zoom,
    ready: doc !== null,
    onZoom: (next, at) => {
      anchor.current = at;
      setZoom(next);
    },
  });
  useLayoutEffect(() => keepAnchor(viewRef.current, pagesRef.current, anchor), [drawn]);
  const pages = doc?.numPages;
  useEffect(() => {
    if (pages !== undefined) onPages?.(pages);
  }, [pages, onPages]);

  return (
    <div ref={containerRef} style={{ width: '100%' }}>
      {failed ? (
        <Text c="gray.7">{PDF_FAILED_TEXT}</Text>
      ) : !doc ? (
        <Center py="md">
          <Loader role="status" aria-label="Chargement du PDF" />
        </Center>
      ) : (
        <Stack gap="xs">
          <ZoomToolbar zoom={zoom} label={label} onZoom={setZoom} />
          <div
            ref={viewRef}
            role="region"
            aria-label={`${label} : pages`}
            // Focusable so the keyboard can scroll a zoomed page (axe: scrollable-region-focusable).
            tabIndex={0}
            style={{ overflowX: 'auto', maxWidth: '100%' }}
          >
            <Stack ref={pagesRef} gap="sm" w={drawn > 0 ? drawn : undefined}>
              {Array.from({ length: doc.numPages }, (_, i) => {
                const canvas = (
                  <PdfPage key={i} doc={doc} pageNumber={i + 1} width={drawn} label={`${label}, page ${i + 1} sur ${doc.numPages}`} />
                );
                return overlay ? (
                  <div key={i} style={{ position: 'relative' }}>
                    {canvas}
                    {overlay(i)}
                  </div>
                ) : (
                  canvas
                );
              })}
            </Stack>
          </div>
        </Stack>
      )}
    </div>
  );
}

/** Zoom out, the zoom, zoom in and « Ajuster à la largeur » (decision 65). */
function ZoomToolbar({
  zoom,
  label,
  onZoom,
}: {
  zoom: number;
  label: string;
  onZoom: (next: number | ((zoom: number) => number)) => void;
}) {
  return (
    <Group gap="xs" role="toolbar" aria-label={`Zoom : ${label}`} wrap="wrap">
      <ActionIcon variant="default" size="lg" aria-label="Zoom arrière" onClick={() => onZoom(zoomOut)} disabled={zoom <= ZOOM_STEPS[0]}>
        <IconZoomOut size={18} aria-hidden="true" />
      </ActionIcon>
      <Text size="sm" w={52} ta="center" aria-live="polite" data-testid="pdf-zoom">
        {formatZoom(zoom)}
      </Text>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Zoom avant"
        onClick={() => onZoom(zoomIn)}
        disabled={zoom >= ZOOM_STEPS[ZOOM_STEPS.length - 1]}
      >
        <IconZoomIn size={18} aria-hidden="true" />
      </ActionIcon>
      <Button
        variant="default"
        size="sm"
        leftSection={<IconArrowAutofitWidth size={18} aria-hidden="true" />}
        onClick={() => onZoom(FIT_WIDTH)}
        disabled={zoom === FIT_WIDTH}
      >
        Ajuster à la largeur
      </Button>
    </Group>
  );
}

/**
 * After a pinch, the point that was between the fingers is brought back under them: the view scrolls
 * sideways, the page down or up. The canvases take their new size at once (stretched until drawn again),
 * so that the page is already tall enough to scroll to.
 */
function keepAnchor(view: HTMLElement | null, pages: HTMLElement | null, anchor: { current: ZoomAnchor | null }) {
  const at = anchor.current;
  anchor.current = null;
  if (!at || !view || !pages) return;
  for (const canvas of pages.querySelectorAll('canvas')) {
    canvas.style.width = `${parseFloat(canvas.style.width || '0') * at.ratio}px`;
    canvas.style.height = `${parseFloat(canvas.style.height || '0') * at.ratio}px`;
  }
  const box = view.getBoundingClientRect();
  const x = at.x - box.left;
  view.scrollLeft = (view.scrollLeft + x) * at.ratio - x;
  const top = pages.getBoundingClientRect().top;
  window.scrollBy(0, (at.y - top) * (at.ratio - 1));
}

/** One page on a canvas at the container width. */
function PdfPage({ doc, pageNumber, width, label }: { doc: PDFDocumentProxy; pageNumber: number; width: number; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  usePageCanvas(canvasRef, doc, pageNumber, { width });
  return (
    <canvas ref={canvasRef} role="img" aria-label={label} style={{ display: 'block', border: '1px solid var(--mantine-color-gray-3)' }} />
  );
}
