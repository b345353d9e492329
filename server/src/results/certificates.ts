import { formatFrenchDate, formatTotal, parisDateOf } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { Zip, type ZipInputFile } from 'fflate';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { notFound } from '../errors.js';
import { renderCertificatesInWorker } from '../pdf/pdf-pool.js';
import type { CertificateData } from './certificate.js';
import { assertMayGetCertificate, assertMaySeeResults } from './policies.js';
import { loadChapterResults, type ChapterResults } from './service.js';

/** Decision 139: no certificate for who did not take part, a 404 that says why. */
export const NOT_A_PARTICIPANT_MESSAGE = 'Vous n’avez pas participé à ce chapitre.';
const NOT_A_PARTICIPANT_ADMIN_MESSAGE = 'Cet élève n’a pas participé à ce chapitre.';

/** Certificates per worker task: small enough to stream steadily, large enough to keep the threads busy. */
const BATCH = 250;

const holder = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  institution: z.string().nullable(),
});
type Holder = z.output<typeof holder>;

function certificateOf(results: ChapterResults, holder: Holder, now: Date): CertificateData {
  const total = results.totals.get(holder.id) ?? 0;
  const threshold = results.chapter.qualificationThreshold;
  return {
    firstName: holder.first_name ?? '',
    lastName: holder.last_name ?? '',
    institution: holder.institution,
    chapterTitle: results.chapter.title,
    total: formatTotal(total, results.maxTotal),
    qualification: threshold !== null && total >= threshold ? results.chapter.qualificationText : null,
    issuedOn: formatFrenchDate(parisDateOf(now)),
  };
}

function holdersOf(db: Db, ids: readonly string[]): Promise<Holder[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return rows(
    db,
    holder,
    sql`SELECT u.id, u.first_name, u.last_name, i.name AS institution
        FROM users u LEFT JOIN institutions i ON i.id = u.institution_id
        WHERE u.id = ANY(${`{${ids.join(',')}}`}::uuid[]) ORDER BY u.last_name, u.first_name, u.id`,
  );
}

/**
 * GET /results/{chapterId}/certificate.pdf: the caller's own certificate once published; `user`
 * names another pupil, which only an admin may (403 otherwise). Written in the PDF worker pool.
 */
export async function ownCertificate(db: Db, auth: AuthContext, chapterId: string, user?: string, now = new Date()) {
  const target = user ?? auth.userId;
  assertMayGetCertificate(auth, target);
  const results = await loadChapterResults(db, chapterId);
  assertMaySeeResults(auth, results.chapter, now);
  if (!results.totals.has(target)) throw notFound(target === auth.userId ? NOT_A_PARTICIPANT_MESSAGE : NOT_A_PARTICIPANT_ADMIN_MESSAGE);
  const [holder] = await holdersOf(db, [target]);
  const [rendered] = await renderCertificatesInWorker([certificateOf(results, holder, now)]);
  return { bytes: rendered.bytes, fileName: certificateFileName(results.chapter.title) };
}

/** « Attestation - Tour 1.pdf », without characters a file system refuses. */
export function certificateFileName(title: string): string {
  const base = title
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `Attestation - ${base || 'épreuve'}.pdf`;
}

const entryName = (index: number, h: Holder) =>
  `${String(index + 1).padStart(5, '0')} ${`${h.last_name ?? ''} ${h.first_name ?? ''}`.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim()}.pdf`;

/**
 * GET /results/{chapterId}/certificates.zip (admins): every participant's certificate, rendered by
 * batches in the worker pool (two batches in flight, one per thread) and streamed as they come.
 * The chapter is loaded first, so that an unknown one is a 404 before any byte is sent.
 */
export async function chapterCertificatesZip(db: Db, chapterId: string, now = new Date()) {
  const results = await loadChapterResults(db, chapterId);
  const holders = await holdersOf(db, [...results.totals.keys()]);
  return { title: results.chapter.title, chunks: zipChunks(results, holders, now) };
}

function zipChunks(results: ChapterResults, holders: Holder[], now: Date): AsyncGenerator<Buffer> {
  return zipCertificates(holders.map((h, i) => ({ name: entryName(i, h), data: certificateOf(results, h, now) })));
}

/**
 * One stored (not deflated: PDFs gain little) file of the archive, whose CRC-32 the worker computed:
 * fflate's `ZipInputFile` handed its bytes at once, so the event loop never reads them again.
 */
export function addStored(zip: Zip, filename: string, bytes: Uint8Array, crc: number, mtime: Date): void {
  const file: ZipInputFile = { filename, size: bytes.length, crc, compression: 0, mtime };
  zip.add(file);
  // A worker's PDF arrives structured-cloned, on an ArrayBuffer of its own (never a SharedArrayBuffer).
  file.ondata!(null, bytes as Uint8Array<ArrayBuffer>, true);
}

/**
 * The ZIP of certificates, as chunks: batches rendered in the PDF worker pool (two in flight, one
 * per thread), each written out by fflate's streaming `Zip` as soon as it is back, so the archive
 * is never held whole (no ZIP64: up to 65,535 entries and 4 GB). bench/certificates measures it.
 */
export async function* zipCertificates(entries: ReadonlyArray<{ name: string; data: CertificateData }>): AsyncGenerator<Buffer> {
  const batches: Array<typeof entries> = [];
  for (let i = 0; i < entries.length; i += BATCH) batches.push(entries.slice(i, i + BATCH));
  const render = (batch: typeof entries) => {
    const p = renderCertificatesInWorker(batch.map((e) => e.data));
    p.catch(() => undefined); // awaited below; this keeps a batch failing while another is awaited from being "unhandled"
    return p;
  };
  const pending = batches.slice(0, 2).map(render);
  // fflate hands its output to this callback synchronously, within add() and end().
  let written: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else written.push(chunk);
  });
  const take = () => {
    if (failure) throw failure;
    const chunk = Buffer.concat(written);
    written = [];
    return chunk;
  };
  const mtime = new Date();
  for (let b = 0; b < batches.length; b++) {
    // Taken out of the queue: a settled promise kept there would hold its batch of PDFs until the last one.
    const rendered = await pending.shift()!;
    if (b + 2 < batches.length) pending.push(render(batches[b + 2]));
    rendered.forEach((r, i) => addStored(zip, batches[b][i].name, r.bytes, r.crc, mtime));
    yield take();
  }
  zip.end();
  yield take();
}
