import { useRef } from 'react';
import { Center, Loader, Stack, Text } from '@mantine/core';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { PDF_FAILED_TEXT, useElementWidth, usePageCanvas, usePdfDocument } from './use-pdf';

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
  const { doc, failed } = usePdfDocument(path);
  // A window resize redraws the pages once it settles.
  const width = useElementWidth(containerRef, RESIZE_DEBOUNCE_MS);

  return (
    <div ref={containerRef} style={{ width: '100%' }}>
      {failed ? (
        <Text c="gray.7">{PDF_FAILED_TEXT}</Text>
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

/** One page on a canvas at the container width. */
function PdfPage({ doc, pageNumber, width, label }: { doc: PDFDocumentProxy; pageNumber: number; width: number; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  usePageCanvas(canvasRef, doc, pageNumber, { width });
  return <canvas ref={canvasRef} role="img" aria-label={label} style={{ display: 'block', border: '1px solid var(--mantine-color-gray-3)' }} />;
}
