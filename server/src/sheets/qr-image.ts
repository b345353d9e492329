import type { PDFDocument, PDFRef } from '@cantoo/pdf-lib';
import { qrBits } from './qr.js';

/**
 * A QR code as a 1-bit image mask registered in the document, one pixel per module (1 = dark
 * module = painted, no smoothing): drawn with a `cm` that scales it to its printed size.
 * Answer sheets and convocations both print their codes this way.
 */
export function registerQrImage(doc: PDFDocument, bytes: Uint8Array): PDFRef {
  const qr = qrBits(bytes);
  return doc.context.register(
    doc.context.stream(qr.bits, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: qr.size,
      Height: qr.size,
      BitsPerComponent: 1,
      ImageMask: true,
      Decode: [1, 0],
      Interpolate: false,
    }),
  );
}
