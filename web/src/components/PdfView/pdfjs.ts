import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker is bundled by Vite as an asset of our own build and served by us (CSP worker-src 'self').
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * Loaded with a dynamic import by PdfView only: pdf.js (and its worker) reach the browser with the
 * routes that display a PDF, never with the rest of the app.
 */
export async function openPdf(bytes: ArrayBuffer): Promise<PDFDocumentProxy> {
  // pdf.js transfers the buffer to its worker: give it a copy so the caller's bytes stay usable.
  // pdf.js 6 never evaluates code from a PDF (its isEvalSupported option is gone); scripting and XFA stay off.
  return getDocument({ data: new Uint8Array(bytes.slice(0)), enableXfa: false }).promise;
}

export type { PDFDocumentProxy };
