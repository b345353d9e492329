import { crc32 } from 'node:zlib';
import { PDFDocument, rgb, type PDFFont } from '@cantoo/pdf-lib';
import { embedFonts } from '../pdf/fonts.js';

/** What one certificate says: who, which test, and the qualification when there is one. */
export interface CertificateData {
  firstName: string;
  lastName: string;
  institution: string | null;
  chapterTitle: string;
  /** « 12,5 / 20 », already formatted. */
  total: string;
  /** The chapter's words when the pupil is qualified, else null. */
  qualification: string | null;
  /** « 27 novembre 2026 », Paris date of issue. */
  issuedOn: string;
}

/** A certificate as the worker hands it back: the PDF and its CRC-32 (the ZIP needs it). */
export interface RenderedCertificate {
  bytes: Uint8Array;
  crc: number;
}

const A4: [number, number] = [841.89, 595.28];

/** One certificate of participation (and of qualification when qualified), A4 landscape, French wording. */
export async function renderCertificate(data: CertificateData): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // Decision 143: a Unicode font (subset), so the name prints as the pupil wrote it.
  const { regular, bold, drawable } = await embedFonts(doc);
  // One line per text: line ends and tabs in a title become spaces.
  const encodable = (text: string) => drawable(text.replace(/[\t\r\n]+/g, ' '));
  const page = doc.addPage(A4);
  const [width, height] = A4;
  const centred = (text: string, y: number, size: number, font: PDFFont) => {
    const safe = encodable(text);
    // Widths are proportional to the size: one measure (a layout of the text) serves both.
    const measured = Math.max(1, font.widthOfTextAtSize(safe, size));
    const fitted = Math.min(size, (size * (width - 120)) / measured);
    page.drawText(safe, { x: (width - (measured * fitted) / size) / 2, y, size: fitted, font, color: rgb(0.1, 0.1, 0.2) });
  };
  page.drawRectangle({ x: 30, y: 30, width: width - 60, height: height - 60, borderColor: rgb(0.2, 0.3, 0.6), borderWidth: 3 });
  const qualified = data.qualification !== null;
  centred(qualified ? 'Attestation de participation et de qualification' : 'Attestation de participation', height - 130, 30, bold);
  centred('Nous attestons que', height - 200, 16, regular);
  centred(`${data.firstName} ${data.lastName}`.trim(), height - 245, 28, bold);
  if (data.institution) centred(data.institution, height - 280, 14, regular);
  centred(`a participé à l’épreuve « ${data.chapterTitle} »`, height - 325, 16, regular);
  centred(`Total : ${data.total}`, height - 360, 14, regular);
  if (qualified) centred(data.qualification!, height - 410, 20, bold);
  centred(`Fait le ${data.issuedOn}`, 80, 12, regular);
  doc.setTitle(`Attestation – ${data.chapterTitle}`);
  doc.setCreator('Olympe');
  doc.setProducer('Olympe');
  return doc.save({ useObjectStreams: false });
}

/** A batch of certificates (in a worker thread of the PDF pool), each with its CRC-32. */
export async function renderCertificates(items: readonly CertificateData[]): Promise<RenderedCertificate[]> {
  const out: RenderedCertificate[] = [];
  for (const item of items) {
    const bytes = await renderCertificate(item);
    out.push({ bytes, crc: crc32(bytes) >>> 0 });
  }
  return out;
}
