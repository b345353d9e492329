import { useRef } from 'react';
import { Center, Loader, Text } from '@mantine/core';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { PDF_FAILED_TEXT, useElementWidth, usePageCanvas } from '../../components/PdfView/use-pdf';

/** Pages fit the column's width and this share of the window's height. */
const MAX_HEIGHT_SHARE = 0.78;

/**
 * One page of the scan, large, turned by the sorter's rotation on top of the page's own (as the
 * server will store it): pdf.js draws it at that rotation, so what is seen is what is saved.
 */
export function PageView({
  doc,
  pageNumber,
  rotation,
  label,
}: {
  doc: PDFDocumentProxy | null;
  pageNumber: number;
  rotation: number;
  label: string;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const width = useElementWidth(boxRef);
  usePageCanvas(canvasRef, doc, pageNumber, { width, maxHeight: window.innerHeight * MAX_HEIGHT_SHARE, rotation });

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
  return <Text c="gray.7">{PDF_FAILED_TEXT}</Text>;
}
