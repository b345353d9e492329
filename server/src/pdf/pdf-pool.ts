import os from 'node:os';
import pLimit from 'p-limit';
import { Piscina } from 'piscina';
import { AppError, badRequest } from '../errors.js';
import type { CertificateData, RenderedCertificate } from '../results/certificate.js';
import type { CorrectedCopyData, RenderedCopy } from '../results/corrected-copy.js';
import type { PageReading } from '../sheets/scan-reader.js';
import type { SplitPart } from '../sorting/split.js';
import type { PdfOutcome, PdfTask } from './pdf-worker.js';

/**
 * Every parse of a user's PDF runs here, in worker threads (decision 35): a hostile file costs a
 * thread for at most its time cap, never the event loop, and a thread that passes its heap cap or
 * time cap is terminated and replaced. Mutable for the tests and the bench (set before first use,
 * or call closePdfPool() after a change).
 */
export const pdfLimits = {
  /** 2 on this 2-core box: a long scan reading leaves a thread to uploads. */
  threads: Math.max(1, Math.min(2, os.availableParallelism())),
  /** Parses waiting for a thread; beyond, 503. Uploads are 30 MB at most: 16 waiting is 480 MB held. */
  maxQueue: 16,
  /** JS heap of a worker (ArrayBuffers are not counted: inflate-guard.ts bounds those). */
  heapMb: 256,
  /** Upload check and page count: a genuine 28 MB, 400-page scan parses in 0.2–0.7 s (bench/pdf-bombs). */
  inspectMs: 20_000,
  /** Splitting a scan into per-pupil copies: one parse, then copies and saves. */
  splitMs: 60_000,
  /** Added per page when the copies' names are masked (decision 130): a page drawn, read and encoded: ~1 s on a quiet box, 3 s on a loaded one. */
  maskPageMs: 5_000,
  /** Reading a scan's codes: 400 pages at ~0.1–0.4 s a page on a loaded box. */
  readMs: 10 * 60_000,
  /** A batch of certificates (decision 72): ~250 take well under a second. */
  certificatesMs: 60_000,
  /** A batch of corrected copies (decision 162): a 10-page copy takes well under a second. */
  correctedMs: 60_000,
  /** Making photos into a PDF (decision 140), for each photo: a 12 MP HEIC takes ~2 s of CPU, 22 s on a box loaded 10 times over. */
  photoMs: 20_000,
  /** Scheduling priority of the parse threads below the event loop's (0: same). */
  niceIncrement: 10,
};

export const PDF_BOMB_MESSAGE = 'Ce PDF se décompresse en un volume anormal : il est refusé.';
export const PDF_MEMORY_MESSAGE = 'Ce PDF demande trop de mémoire pour être lu : il est refusé.';
export const PDF_TIMEOUT_MESSAGE = 'La lecture de ce PDF prend trop de temps : il est refusé.';
export const PDF_UNREADABLE_MESSAGE = 'Ce PDF est illisible ou endommagé.';
export const PDF_PASSWORD_MESSAGE = 'Ce PDF est protégé par un mot de passe : enregistrez-le sans mot de passe, puis renvoyez-le.';
export const PHOTO_UNREADABLE_MESSAGE = 'Cette image n’a pas pu être lue\u00a0: envoyez une photo JPEG, PNG ou HEIC, ou un PDF.';
export const PHOTO_PIXELS_MESSAGE =
  'Cette photo a trop de pixels pour être lue\u00a0: reprenez-la avec l’appareil photo du téléphone en qualité normale (50 mégapixels au plus).';
export const PDF_BUSY_MESSAGE = 'Le serveur lit déjà beaucoup de PDF : réessayez dans une minute.';

/** The open pool: its threads, our queue in front of them, and the threads' first answers (see open()). */
interface Pool {
  threads: Piscina<PdfTask, PdfOutcome>;
  gate: ReturnType<typeof pLimit>;
  started: Promise<unknown>;
}
let current: Pool | null = null;

function open(): Pool {
  if (!current) {
    const threads = new Piscina<PdfTask, PdfOutcome>({
      filename: new URL('./pdf-worker.mjs', import.meta.url).href,
      // Every thread from the start, kept while idle: a thread starting (tsx compiling the worker's modules,
      // seconds on a loaded machine) never counts in an upload's time cap.
      minThreads: pdfLimits.threads,
      maxThreads: pdfLimits.threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      // Linux nices each thread: the event loop's thread wins the CPU from a parse (measured in decision 35).
      niceIncrement: pdfLimits.niceIncrement,
      resourceLimits: { maxOldGenerationSizeMb: pdfLimits.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    current = {
      threads,
      // Our own queue in front of piscina's: a task reaches piscina only when a thread is free, so
      // its time cap counts its parse, not its wait.
      gate: pLimit(pdfLimits.threads),
      // One ping a thread (each busy thread takes one task): answered once its modules are loaded.
      started: Promise.allSettled(Array.from({ length: pdfLimits.threads }, () => threads.run({ kind: 'ping' }))),
    };
  }
  return current;
}

/** Starts the threads before the first upload needs them (the server's start). */
export async function warmPdfPool(): Promise<void> {
  await open().started;
}

/** Stops the threads (app close); the next parse opens a new pool. */
export async function closePdfPool(): Promise<void> {
  const closing = current;
  current = null;
  await closing?.threads.destroy();
}

async function run(task: PdfTask, timeoutMs: number): Promise<PdfOutcome> {
  const { threads, gate, started } = open();
  if (gate.pendingCount >= pdfLimits.maxQueue) throw new AppError(503, PDF_BUSY_MESSAGE);
  return gate(async () => {
    await started;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      if (task.kind === 'photos') {
        // Copies handed over, as for a PDF below.
        const photos = task.photos.map((photo) => new Uint8Array(photo));
        return await threads.run({ kind: 'photos', photos }, { signal, transferList: photos.map((photo) => photo.buffer) });
      }
      if (task.kind === 'corrected') {
        // The stored copies handed over, as the photos are.
        const copies = task.copies.map((c) => ({ ...c, pdf: c.pdf && new Uint8Array(c.pdf) }));
        const transferList = copies.flatMap((c) => (c.pdf ? [c.pdf.buffer] : []));
        return await threads.run({ kind: 'corrected', copies }, { signal, transferList });
      }
      if (!('bytes' in task)) return await threads.run(task, { signal });
      // A copy handed over rather than cloned: cloning 28 MB held the event loop ~90 ms (bench/pdf-bombs).
      const bytes = new Uint8Array(task.bytes);
      return await threads.run({ ...task, bytes }, { signal, transferList: [bytes.buffer] });
    } catch (err) {
      if (signal.aborted) throw new AppError(413, PDF_TIMEOUT_MESSAGE);
      const e = err as { code?: string; message?: string };
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /memory limit/i.test(e.message ?? '')) throw new AppError(413, PDF_MEMORY_MESSAGE);
      throw err;
    }
  });
}

function refusal(outcome: PdfOutcome): never | void {
  if (outcome.ok) return;
  if (outcome.refused === 'bomb') throw new AppError(413, PDF_BOMB_MESSAGE);
  throw badRequest(outcome.refused === 'password' ? PDF_PASSWORD_MESSAGE : PDF_UNREADABLE_MESSAGE);
}

/**
 * Page count and SHA-256 (hex) of a PDF, or the AppError that refuses it (413 bomb/memory/time,
 * 400 unreadable or protected by a password, 503 busy). `bytes`: what to store instead of the file
 * sent, when qpdf rewrote it (decrypted, repaired: decisions 105, 106).
 */
export async function inspectPdf(bytes: Uint8Array): Promise<{ pages: number; sha256: string; bytes?: Buffer }> {
  const outcome = await run({ kind: 'inspect', bytes }, pdfLimits.inspectMs);
  refusal(outcome);
  if (!('pages' in outcome)) throw new Error('unexpected PDF worker answer');
  const rewritten = outcome.bytes ? { bytes: Buffer.from(outcome.bytes.buffer, outcome.bytes.byteOffset, outcome.bytes.byteLength) } : {};
  return { pages: outcome.pages, sha256: outcome.sha256, ...rewritten };
}

/**
 * Photos of a proof made into one PDF in a worker (decision 140): its bytes, page count and SHA-256, or the
 * AppError that refuses it (400 a photo unreadable or with too many pixels, 413 time or memory, 503 busy).
 */
export async function photosToPdfInWorker(photos: Uint8Array[]): Promise<{ bytes: Buffer; pages: number; sha256: string }> {
  const outcome = await run({ kind: 'photos', photos }, pdfLimits.photoMs * Math.max(1, photos.length));
  if (!outcome.ok && (outcome.refused === 'photo' || outcome.refused === 'pixels')) {
    const message = outcome.refused === 'photo' ? PHOTO_UNREADABLE_MESSAGE : PHOTO_PIXELS_MESSAGE;
    // Among several photos, which one: « Photo 2 : cette image… ».
    if (photos.length < 2 || outcome.photo === undefined) throw badRequest(message);
    throw badRequest(`Photo ${outcome.photo + 1}\u00a0: ${message.charAt(0).toLowerCase()}${message.slice(1)}`);
  }
  refusal(outcome);
  if (!('pages' in outcome) || !outcome.bytes) throw new Error('unexpected PDF worker answer');
  return {
    bytes: Buffer.from(outcome.bytes.buffer, outcome.bytes.byteOffset, outcome.bytes.byteLength),
    pages: outcome.pages,
    sha256: outcome.sha256,
  };
}

/** Page count of a PDF (inspectPdf). */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  return (await inspectPdf(bytes)).pages;
}

/** sorting/split.ts's split, in a worker; `maskNames`: every page its picture with the name band white (decision 130). */
export async function splitPdf(bytes: Uint8Array, parts: SplitPart[], maskNames = false): Promise<Array<{ bytes: Buffer; pages: number }>> {
  const pages = maskNames ? parts.reduce((n, p) => n + p.pages.length, 0) : 0;
  const outcome = await run({ kind: 'split', bytes, parts, maskNames }, pdfLimits.splitMs + pages * pdfLimits.maskPageMs);
  refusal(outcome);
  if (!('parts' in outcome)) throw new Error('unexpected PDF worker answer');
  return outcome.parts.map((p) => ({ bytes: Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength), pages: p.pages }));
}

/** Decision 139: the pages of `extra` appended after those of `bytes`, in a worker (sorting/split.ts's appendPages). */
export async function appendPdf(bytes: Uint8Array, extra: Uint8Array): Promise<{ bytes: Buffer; pages: number }> {
  const outcome = await run({ kind: 'append', bytes, extra }, pdfLimits.splitMs);
  refusal(outcome);
  if (!('parts' in outcome) || outcome.parts.length !== 1) throw new Error('unexpected PDF worker answer');
  const [part] = outcome.parts;
  return { bytes: Buffer.from(part.bytes.buffer, part.bytes.byteOffset, part.bytes.byteLength), pages: part.pages };
}

/** sheets/scan-reader.ts's reading, in a worker. */
export async function readScanInWorker(bytes: Uint8Array, secret: string, chapterId: string): Promise<PageReading[]> {
  const outcome = await run({ kind: 'read', bytes, secret, chapterId }, pdfLimits.readMs);
  refusal(outcome);
  if (!('readings' in outcome)) throw new Error('unexpected PDF worker answer');
  return outcome.readings;
}

/** Decision 72: a batch of certificates, written in a worker; each with its CRC-32 for the ZIP. */
export async function renderCertificatesInWorker(certificates: CertificateData[]): Promise<RenderedCertificate[]> {
  const outcome = await run({ kind: 'certificates', certificates }, pdfLimits.certificatesMs);
  refusal(outcome);
  if (!('certificates' in outcome)) throw new Error('unexpected PDF worker answer');
  return outcome.certificates;
}

/** Decision 162: a batch of corrected copies, drawn in a worker; each with its CRC-32 for the ZIP. */
export async function renderCorrectedCopiesInWorker(copies: CorrectedCopyData[]): Promise<RenderedCopy[]> {
  const outcome = await run({ kind: 'corrected', copies }, pdfLimits.correctedMs);
  refusal(outcome);
  if (!('copies' in outcome)) throw new Error('unexpected PDF worker answer');
  return outcome.copies;
}
