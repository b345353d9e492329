import { createHash } from 'node:crypto';
import { decodePDFRawStream, ParseSpeeds, PDFDict, PDFDocument, PDFInvalidObject, PDFName, type PDFRawStream } from '@cantoo/pdf-lib';
import { renderCertificates, type CertificateData, type RenderedCertificate } from '../results/certificate.js';
import { renderCorrectedCopies, type CorrectedCopyData, type RenderedCopy } from '../results/corrected-copy.js';
import { readScanDocument, type PageReading } from '../sheets/scan-reader.js';
import { maskedPagePicture, MASKED_PAGE_DPI } from '../sorting/mask-names.js';
import { splitDocument, type MaskedPicture, type SplitPart } from '../sorting/split.js';
import { assertInflateWithinBudget, INFLATE_BUDGET_BYTES, PdfBombError, readWithin } from './inflate-guard.js';
import { cropSizeOrA4, dpiFor, openRenderSource, popplerPageSizes, renderPageJpeg, type RenderSource } from './render-page.js';
import { PhotoError, photosToPdf } from './photos.js';
import { headerOffset, PasswordPdfError, rewritePdf, RewriteError } from './rewrite.js';
import { stripPrivateParts } from './strip-private.js';

/**
 * The PDF parses of the API, run in a worker thread of pdf-pool.ts (never on the event loop).
 * Loaded through pdf-worker.mjs, which registers tsx in the thread.
 */

export type PdfTask =
  | { kind: 'inspect'; bytes: Uint8Array }
  /** `maskNames`: the copies of a chapter under anonymous correction (decision 130). */
  | { kind: 'split'; bytes: Uint8Array; parts: SplitPart[]; maskNames?: boolean }
  /** Decision 139: the pages of `extra` (a part this server split) put after those of `bytes` (a graded copy). */
  | { kind: 'append'; bytes: Uint8Array; extra: Uint8Array }
  | { kind: 'read'; bytes: Uint8Array; secret: string; chapterId: string }
  | { kind: 'certificates'; certificates: CertificateData[] }
  /** Decision 162: corrected copies, the marks drawn into the stored copies. */
  | { kind: 'corrected'; copies: CorrectedCopyData[] }
  /** Photos of a proof made into one PDF (decision 140). */
  | { kind: 'photos'; photos: Uint8Array[] }
  /** Answered once the thread has loaded this module (pdf-pool.ts waits for it before any time cap). */
  | { kind: 'ping' };

/** `photo` and `pixels`: the photo at `photo` (from 0) cannot be read, or has too many pixels (decision 140). */
export type PdfRefusal = 'bomb' | 'unreadable' | 'password' | 'photo' | 'pixels';

export type PdfOutcome =
  /** `bytes`: the file as it is to be stored, when qpdf rewrote it (decisions 105, 106) or its metadata was removed (decision 131). */
  | { ok: true; pages: number; sha256: string; bytes?: Uint8Array }
  | { ok: true; parts: Array<{ bytes: Uint8Array; pages: number }> }
  | { ok: true; readings: PageReading[] }
  | { ok: true; certificates: RenderedCertificate[] }
  | { ok: true; copies: RenderedCopy[] }
  | { ok: true; ready: true }
  | { ok: false; refused: PdfRefusal; photo?: number };

interface ByteStreamClass {
  of(bytes: Uint8Array): unknown;
  fromPDFRawStream(raw: PDFRawStream): unknown;
}

// pdf-lib decodes object and cross-reference streams through this one function while it loads
// a file; it is not exported, hence the file inside the package, imported by its URL (the package's
// `exports` hide it): the same module instance as the one pdf-lib's ES index loads. A pdf-lib that
// moves it makes the worker fail to start, loudly.
const esIndex = import.meta.resolve('@cantoo/pdf-lib');
const { default: ByteStream } = (await import(new URL('core/parser/ByteStream.js', esIndex).href)) as { default: ByteStreamClass };

/** What the current load may still inflate; pdf-lib swallows errors of single objects, hence the flag. */
const budget = { left: 0, exceeded: false };

ByteStream.fromPDFRawStream = (raw: PDFRawStream) => {
  const bytes = readWithin(decodePDFRawStream(raw), Math.max(0, budget.left));
  if (!bytes) {
    budget.exceeded = true;
    throw new PdfBombError(INFLATE_BUDGET_BYTES);
  }
  budget.left -= bytes.length;
  return ByteStream.of(bytes);
};

/**
 * pdf-lib's load, bounded: the lexical scan first (native zlib, stops at the budget), then the
 * same budget on what pdf-lib itself inflates, for a file crafted to slip past the scan.
 * `prescan: false` is for the tests of that second cap.
 */
export async function loadWithinBudget(bytes: Uint8Array, opts: { prescan?: boolean; budget?: number } = {}): Promise<PDFDocument> {
  const limit = opts.budget ?? INFLATE_BUDGET_BYTES;
  if (opts.prescan !== false) assertInflateWithinBudget(bytes, limit);
  budget.left = limit;
  budget.exceeded = false;
  // No yielding: nothing else runs on this thread.
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  if (budget.exceeded) throw new PdfBombError(limit);
  return doc;
}

/**
 * The document as the API keeps it (decisions 105, 106): a file pdf-lib reads as it is stays as it
 * is; an encrypted one (owner password only), one with junk before `%PDF-`, one pdf-lib cannot
 * parse, finds no page in, or reads only in part (an object it could not parse, decision 142) is
 * rewritten by qpdf, and the rewrite is what is read and stored. A file that needs a password to
 * open throws PasswordPdfError; one qpdf cannot rebuild, RewriteError.
 */
export async function openDocument(bytes: Uint8Array): Promise<{ doc: PDFDocument; bytes: Uint8Array; rewritten: boolean }> {
  if (headerOffset(bytes) === 0) {
    try {
      const doc = await loadWithinBudget(bytes);
      // Walks the page tree: a malformed tree fails here.
      if ((!doc.isEncrypted || onlyAttachmentsEncrypted(doc)) && doc.getPageCount() > 0 && !hasUnparsedObjects(doc))
        return { doc, bytes, rewritten: false };
    } catch (err) {
      if (err instanceof PdfBombError) throw err;
    }
  }
  let rewritten: Uint8Array;
  try {
    rewritten = await rewritePdf(bytes);
  } catch (err) {
    if (!(err instanceof RewriteError)) throw err;
    // qpdf gives up (a broken encryption dictionary…): poppler may still draw it.
    const pictures = await picturePdf(bytes);
    return { doc: await PDFDocument.load(pictures, { updateMetadata: false }), bytes: pictures, rewritten: true };
  }
  try {
    const doc = await loadWithinBudget(rewritten);
    if (doc.getPageCount() > 0) {
      if (!hasUnparsedObjects(doc)) return { doc, bytes: rewritten, rewritten: true };
      // Even qpdf's rebuild has objects pdf-lib cannot parse: its copies would lose them (blank pages),
      // so poppler's pictures of the pages are kept, or the rebuild when they cannot be had (decision 142).
      try {
        const pictures = await picturePdf(rewritten);
        return { doc: await PDFDocument.load(pictures, { updateMetadata: false }), bytes: pictures, rewritten: true };
      } catch (err) {
        if (!(err instanceof RewriteError)) throw err;
        return { doc, bytes: rewritten, rewritten: true };
      }
    }
  } catch (err) {
    if (err instanceof PdfBombError) throw err;
  }
  // pdf-lib cannot walk even the rebuilt file (a loop in its page tree…): poppler draws its pages,
  // which become the file (decision 106).
  const pictures = await picturePdf(rewritten);
  return { doc: await PDFDocument.load(pictures, { updateMetadata: false }), bytes: pictures, rewritten: true };
}

/**
 * Decision 142: pdf-lib does not fail on an object it cannot parse (a dictionary whose key is not a name,
 * as in pdf.js's `issue11549_reduced.pdf`): it keeps a PDFInvalidObject in its place and goes on, and a
 * page copied from it loses what that object held (a font, a content stream), down to a blank page.
 * qpdf's rewrite parses such objects as viewers do.
 */
function hasUnparsedObjects(doc: PDFDocument): boolean {
  return doc.context.enumerateIndirectObjects().some(([, object]) => object instanceof PDFInvalidObject);
}

/**
 * Encryption that leaves the document itself in clear (decision 115): the crypt filters of streams and
 * strings are `/Identity` and only embedded files are encrypted (`/EFF`, « encrypted attachment »). Every
 * viewer opens such a file without a password, and so does pdf-lib, with nothing to decrypt; qpdf asks for
 * the password of the attachments, so it is kept as it was sent.
 */
function onlyAttachmentsEncrypted(doc: PDFDocument): boolean {
  const encrypt = doc.context.lookupMaybe(doc.context.trailerInfo.Encrypt, PDFDict);
  const identity = (key: string) => encrypt?.lookupMaybe(PDFName.of(key), PDFName) === PDFName.of('Identity');
  return identity('StmF') && identity('StrF');
}

/** Beyond this many pages, a file only poppler can open is refused rather than drawn page by page. */
const PICTURE_MAX_PAGES = 60;

/** A new PDF of the pages poppler draws from `bytes`, one JPEG a page (decision 106). Throws RewriteError. */
async function picturePdf(bytes: Uint8Array): Promise<Uint8Array> {
  const source = await openRenderSource(bytes);
  try {
    const sizes = await popplerPageSizes(source.file, PICTURE_MAX_PAGES + 1).catch(() => []);
    if (sizes.length === 0 || sizes.length > PICTURE_MAX_PAGES) throw new RewriteError(`poppler finds ${sizes.length} pages`);
    const doc = await PDFDocument.create({ updateMetadata: false });
    for (const [index, [width, height]] of sizes.entries()) {
      const dpi = dpiFor(width, height, PICTURE_DPI);
      const image = await doc.embedJpg(
        await renderPageJpeg(source.file, index, dpi).catch((err: Error) => Promise.reject(new RewriteError(err.message))),
      );
      const page = doc.addPage([(image.width * 72) / dpi, (image.height * 72) / dpi]);
      page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
    }
    return await doc.save();
  } finally {
    await source.close();
  }
}

/**
 * The file as it is to be stored when it carried an author's name, metadata, scripts or attachments
 * (decision 131): saved again by pdf-lib without them, its pages' streams copied as they are; null when
 * it carried none. A document pdf-lib cannot write back becomes the pages poppler draws (decision 106).
 */
async function withoutPrivateParts(doc: PDFDocument, bytes: Uint8Array): Promise<Uint8Array | null> {
  if (!stripPrivateParts(doc)) return null;
  try {
    return await doc.save({ updateFieldAppearances: false, addDefaultPage: false });
  } catch {
    return picturePdf(bytes);
  }
}

/** Split pictures' resolution (decision 107): a page as legible as the reading's render. */
const PICTURE_DPI = 150;

export default async function runPdfTask(task: PdfTask): Promise<PdfOutcome> {
  if (task.kind === 'ping') return { ok: true, ready: true };
  // Decision 72: certificates are written, not parsed; here so that 10,000 of them never hold the event loop.
  if (task.kind === 'certificates') return { ok: true, certificates: await renderCertificates(task.certificates) };
  if (task.kind === 'photos') return photosTask(task.photos);
  // Decision 162: a stored copy was checked when it was sent; it is still loaded within the inflate budget.
  if (task.kind === 'corrected') return { ok: true, copies: await renderCorrectedCopies(task.copies, (bytes) => loadWithinBudget(bytes)) };
  let opened: Awaited<ReturnType<typeof openDocument>>;
  try {
    opened = await openDocument(task.bytes);
  } catch (err) {
    return { ok: false, refused: err instanceof PdfBombError ? 'bomb' : err instanceof PasswordPdfError ? 'password' : 'unreadable' };
  }
  const { doc, bytes } = opened;
  // The hash of a 200 MB scan takes ~0.5 s: here, not on the event loop (decision 58). It is the
  // hash of what was sent, so that the same file sent twice is known whatever its rewrite.
  if (task.kind === 'inspect') {
    const sha256 = createHash('sha256').update(task.bytes).digest('hex');
    const pages = doc.getPageCount();
    try {
      const kept = await withoutPrivateParts(doc, bytes);
      return { ok: true, pages, sha256, ...(kept || opened.rewritten ? { bytes: kept ?? bytes } : {}) };
    } catch {
      return { ok: false, refused: 'unreadable' };
    }
  }
  if (task.kind === 'split') {
    let source: RenderSource | null = null;
    const open = async () => (source ??= await openRenderSource(bytes));
    // A page used by two parts (two exercises) is drawn and masked once.
    const maskedPages = new Map<string, Promise<{ jpeg: Uint8Array; dpi: number }>>();
    const masked: MaskedPicture = (index, rotation) => {
      const key = `${index}:${rotation}`;
      let picture = maskedPages.get(key);
      if (!picture) {
        picture = open().then((s) => maskedPagePicture(s.file, index, dpiFor(...cropSizeOrA4(doc, index), MASKED_PAGE_DPI), rotation));
        maskedPages.set(key, picture);
      }
      return picture;
    };
    try {
      return {
        ok: true,
        parts: await splitDocument(
          doc,
          task.parts,
          async (index) => {
            const dpi = dpiFor(...cropSizeOrA4(doc, index), PICTURE_DPI);
            return { jpeg: await renderPageJpeg((await open()).file, index, dpi), dpi };
          },
          task.maskNames ? masked : undefined,
        ),
      };
    } catch {
      // Not even poppler draws a page that cannot be copied: refused in French, never a 500 (decision 107).
      return { ok: false, refused: 'unreadable' };
    } finally {
      await (source as RenderSource | null)?.close();
    }
  }
  if (task.kind === 'append') {
    try {
      const extra = await PDFDocument.load(task.extra, { updateMetadata: false });
      const copied = await doc.copyPages(extra, extra.getPageIndices());
      for (const page of copied) doc.addPage(page);
      return { ok: true, parts: [{ bytes: await doc.save(), pages: doc.getPageCount() }] };
    } catch {
      return { ok: false, refused: 'unreadable' };
    }
  }
  return { ok: true, readings: await readScanDocument(doc, bytes, task.secret, task.chapterId) };
}

/** The photos' PDF, its page count and its SHA-256 (the hash of what is stored: there is no sent file to hash). */
async function photosTask(photos: Uint8Array[]): Promise<PdfOutcome> {
  try {
    const bytes = await photosToPdf(photos);
    return { ok: true, pages: photos.length, sha256: createHash('sha256').update(bytes).digest('hex'), bytes };
  } catch (err) {
    if (err instanceof PhotoError) return { ok: false, refused: err.fault === 'pixels' ? 'pixels' : 'photo', photo: err.index };
    throw err;
  }
}
