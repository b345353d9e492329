import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { chapters, files } from '../db/schema.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { loadExerciseContext } from '../sessions/service.js';
import { checkSaveAllowed } from '../sessions/state.js';
import { PAPER_CHAPTER_MESSAGE, PUBLISHED_MESSAGE } from '../answers/policies.js';
import { inspectPdf, photosToPdfInWorker } from '../pdf/pdf-pool.js';
import { looksLikePdf } from '../pdf/rewrite.js';
import { assertMaySeeFile, assertMayUploadForChapter, type FileAccessRow } from './policies.js';
import { releaseUpload, reserveUpload } from './quota.js';
import type { FileStore } from './store.js';

/** Download links that cannot send the Authorization header stay valid this long. */
export const PDF_LINK_TTL_SECONDS = 10 * 60;

export const tooLarge = (maxBytes: number) =>
  new AppError(413, `Le fichier dépasse la taille maximale autorisée (${Math.round(maxBytes / (1024 * 1024))} Mo).`);

/**
 * docs/product.md#design-3 Files: accepted only when the bytes look like a PDF (rewrite.ts `looksLikePdf`), a PDF reader opens them and they
 * fit the size limit. Returns the page count. The parse runs in a PDF worker (pdf/pdf-pool.ts):
 * a file that inflates past the budget, or passes the worker's memory or time cap, is refused
 * with 413; the server is busy reading PDFs: 503. Also returns the file's SHA-256 (hex).
 */
export async function checkPdfBytes(bytes: Buffer, maxBytes: number): Promise<{ pages: number; sha256: string; bytes?: Buffer }> {
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  if (bytes.length === 0) throw badRequest('Le fichier est vide.');
  // Viewers accept up to 1 KB of junk before the header (a mail gateway's, a scanner's), or a body whose header
  // is lost: so does the worker, which rebuilds them (decisions 106, 112).
  if (!looksLikePdf(bytes)) throw badRequest('Ce fichier n’est pas un PDF.');
  // Owner-password PDFs (permissions only) open in every viewer: the worker decrypts them; one that
  // needs a password to open is refused (decision 105).
  const inspected = await inspectPdf(bytes);
  if (inspected.pages < 1) throw badRequest('Ce PDF ne contient aucune page.');
  return inspected;
}

/** What an upload is for (docs/product.md#spec-7): a pupil's copy for an exercise, or a scan of a chapter. */
export interface UploadTarget {
  exerciseId?: string;
  chapterId?: string;
}

export interface UploadInput extends UploadTarget {
  bytes: Buffer;
  originalName: string;
  /** The stored file's id, that of its reservation (decision 133): a resumable upload's own (decision 91). */
  id: string;
}

/**
 * Whether the caller may upload a file for this target now, before any byte is read: a pupil's copy
 * for a PDF exercise they may answer now, a scan of a chapter by school staff, members or admins.
 * POST /pdfs checks it with the whole body in hand; a resumable upload (POST /uploads) when it is
 * created, and again when its last byte arrives.
 */
export async function authorizeUploadTarget(db: Db, auth: AuthContext, target: UploadTarget): Promise<void> {
  if (target.exerciseId) {
    const now = new Date();
    const ctx = await loadExerciseContext(db, auth, target.exerciseId, now);
    if (ctx.exercise.answerFormat !== 'pdf') throw badRequest('Cet exercice n’attend pas de copie PDF.');
    if (!ctx.staff) {
      if (ctx.chapter.offline) throw forbidden(PAPER_CHAPTER_MESSAGE);
      if (ctx.chapter.analysis) throw forbidden(PUBLISHED_MESSAGE);
      const verdict = checkSaveAllowed(ctx.state, now, ctx.session !== null);
      if (!verdict.ok) throw forbidden(verdict.message);
    }
  } else if (target.chapterId) {
    assertMayUploadForChapter(auth);
    const [chapter] = await db
      .select({ id: chapters.id })
      .from(chapters)
      .where(and(eq(chapters.id, target.chapterId), isNull(chapters.deletedAt)));
    if (!chapter) throw notFound('Chapitre introuvable.');
  } else {
    throw badRequest('Indiquez l’exercice ou le chapitre auquel le fichier se rapporte.');
  }
}

/**
 * POST /pdfs, and a resumable upload's last byte: the target check, the PDF check in the worker pool,
 * then the bytes stored under the reservation's id and the row. Nothing is kept on refusal.
 * A file the worker rewrote (decrypted, repaired: decisions 105, 106) is stored as rewritten.
 */
export async function uploadPdf(
  deps: { db: Db; store: FileStore; config: Config; maxPdfBytes: number },
  auth: AuthContext,
  input: UploadInput,
): Promise<{ path: string }> {
  await authorizeUploadTarget(deps.db, auth, input);
  const { pages, sha256, bytes: rewritten } = await checkPdfBytes(input.bytes, deps.maxPdfBytes);
  const { id, originalName } = input;
  return storeFile(deps, auth, { id, bytes: rewritten ?? input.bytes, reserved: input.bytes.length, originalName, pages, sha256 });
}

/**
 * The bytes stored under `id` (the id of the caller's reservation, quota.ts), then the file's row; nothing is kept
 * when the row fails. Bytes beyond those `reserved` (a rewrite larger than the file sent, photos made into a
 * PDF) are reserved first, so that the quota holds for what is kept (decision 133).
 */
async function storeFile(
  deps: { db: Db; store: FileStore; config: Config },
  auth: AuthContext,
  file: { id: string; bytes: Buffer; reserved: number; originalName: string; pages: number; sha256: string },
): Promise<{ path: string }> {
  const { db, store } = deps;
  const { id, bytes } = file;
  if (bytes.length > file.reserved) await reserveUpload(deps, auth, { id, size: bytes.length });
  await store.put(id, bytes);
  try {
    // An upload's own id is recorded once: finished twice (a retried last request), the row and the
    // bytes stored the first time stay, and the second answer is the same.
    await db
      .insert(files)
      .values({
        id,
        ownerId: auth.userId,
        institutionId: auth.institutionId,
        originalName: cleanName(file.originalName),
        size: bytes.length,
        pages: file.pages,
        sha256: file.sha256,
      })
      .onConflictDoNothing({ target: files.id });
  } catch (err) {
    await store.delete(id);
    throw err;
  }
  return { path: `pdfs/${id}.pdf` };
}

/**
 * POST /pdfs within the caller's stored-bytes quota (decision 133): the bytes are reserved before the PDF check,
 * in one database transaction (quota.ts), under the id the file then takes; the reservation is given back
 * whatever happens, a recorded file counting in its place.
 */
export async function uploadPdfWithinQuota(
  deps: { db: Db; store: FileStore; config: Config; maxPdfBytes: number },
  auth: AuthContext,
  input: Omit<UploadInput, 'id'>,
): Promise<{ path: string }> {
  const id = randomUUID();
  await reserveUpload(deps, auth, { id, size: input.bytes.length });
  try {
    return await uploadPdf(deps, auth, { ...input, id });
  } finally {
    await releaseUpload(deps.db, id);
  }
}

/** The photos of POST /pdfs/photos, in the order sent (decision 140). */
export interface PhotosInput {
  exerciseId: string;
  photos: Array<{ bytes: Buffer; name: string }>;
}

/**
 * POST /pdfs/photos (decision 140): a pupil's photos of a proof made into one PDF, stored like a PDF sent by
 * POST /pdfs: the same target check (a PDF exercise they may answer now; never a paper chapter), the same
 * quota (the photos' bytes reserved while they are converted), the conversion in the PDF workers, and the
 * PDF it gives within the size limit of a PDF.
 */
export async function uploadPhotosWithinQuota(
  deps: { db: Db; store: FileStore; config: Config; maxPdfBytes: number },
  auth: AuthContext,
  input: PhotosInput,
): Promise<{ path: string }> {
  const id = randomUUID();
  const size = input.photos.reduce((n, p) => n + p.bytes.length, 0);
  await reserveUpload(deps, auth, { id, size });
  try {
    await authorizeUploadTarget(deps.db, auth, { exerciseId: input.exerciseId });
    if (input.photos.some((p) => p.bytes.length === 0)) throw badRequest('Une des photos est vide.');
    const pdf = await photosToPdfInWorker(input.photos.map((p) => p.bytes));
    if (pdf.bytes.length > deps.maxPdfBytes) throw tooLarge(deps.maxPdfBytes);
    const first = input.photos[0]?.name.replace(/\.[^.]*$/, '') || 'photos';
    return await storeFile(deps, auth, {
      id,
      bytes: pdf.bytes,
      reserved: size,
      originalName: `${first}.pdf`,
      pages: pdf.pages,
      sha256: pdf.sha256,
    });
  } finally {
    await releaseUpload(deps.db, id);
  }
}

export function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
}

const fileAccessRow = z.object({
  owner_id: z.string().nullable(),
  institution_id: z.string().nullable(),
  owner_institution: z.string().nullable(),
  own_answer: z.boolean(),
  sorted_anonymous_scan: z.boolean(),
}) satisfies z.ZodType<FileAccessRow>;

/** Loads what the reading rule needs of a stored PDF, then applies it ({@link assertMaySeeFile}). */
export async function assertCanSeeFile(db: Db, auth: AuthContext, fileId: string): Promise<void> {
  const [row] = await rows(
    db,
    fileAccessRow,
    sql`
    SELECT f.owner_id, f.institution_id, u.institution_id AS owner_institution,
      EXISTS (SELECT 1 FROM answers a WHERE a.file_id = f.id AND a.user_id = ${auth.userId}::uuid) AS own_answer,
      EXISTS (SELECT 1 FROM unlabeled_answers ua JOIN chapters c ON c.id = ua.chapter_id
              WHERE ua.file_id = f.id AND ua.labeled_at IS NOT NULL AND c.anonymous_grading) AS sorted_anonymous_scan
    FROM files f LEFT JOIN users u ON u.id = f.owner_id
    WHERE f.id = ${fileId}::uuid`,
  );
  if (!row) throw notFound('Fichier introuvable.');
  assertMaySeeFile(auth, row);
}

/** Checks the file row exists (signed links skip the caller check, not this one). */
export async function assertFileExists(db: Db, fileId: string): Promise<void> {
  const [row] = await db.select({ id: files.id }).from(files).where(eq(files.id, fileId));
  if (!row) throw notFound('Fichier introuvable.');
}

const signature = (secret: string, fileId: string, exp: number) =>
  createHmac('sha256', secret).update(`pdf:${fileId}:${exp}`).digest('base64url');

/** A URL under the API base that serves the file without a header until `exp` (unix seconds). */
export function signPdfLink(secret: string, fileId: string, nowMs = Date.now()): { url: string; expiresAt: string } {
  const exp = Math.floor(nowMs / 1000) + PDF_LINK_TTL_SECONDS;
  return {
    url: `/api/pdfs/${fileId}.pdf?exp=${exp}&sig=${signature(secret, fileId, exp)}`,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

export function verifyPdfSignature(secret: string, fileId: string, exp: number, sig: string, nowMs = Date.now()): boolean {
  if (!Number.isInteger(exp) || exp * 1000 < nowMs) return false;
  const expected = Buffer.from(signature(secret, fileId, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
