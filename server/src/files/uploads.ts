import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FileStore as TusFileStore } from '@tus/file-store';
import { Metadata, Server, TUS_RESUMABLE, type Upload } from '@tus/server';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { files } from '../db/schema.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { canResumeUpload } from './policies.js';
import { authorizeUploadTarget, cleanName, tooLarge, uploadPdf } from './service.js';
import { purgeExpiredSlots, releaseUpload } from './quota.js';
import type { FileStore } from './store.js';

/**
 * Resumable uploads (decision 91): the tus 1.0 protocol (@tus/server, bytes in @tus/file-store under
 * DATA_DIR/uploads) behind the same guard and the same processing as POST /pdfs. An upload is created
 * with its size and what it is for, receives its bytes in PATCH requests that may stop anywhere and
 * resume from the offset a HEAD gives, and once its last byte is in, is checked and recorded exactly
 * as POST /pdfs does, under the upload's own id: the upload /api/uploads/<id> becomes pdfs/<id>.pdf.
 */
export const UPLOADS_PATH = '/api/uploads';
/** An unfinished upload is kept this long after its creation, then removed (tus expiration). */
export const UPLOAD_EXPIRY_MS = 24 * 3600_000;
/** How often each instance removes the expired ones. */
export const UPLOAD_CLEANUP_MS = 3600_000;

export const UPLOAD_NOT_FOUND_MESSAGE = 'Envoi introuvable : il a expiré ou n’existe pas. Recommencez l’envoi du fichier.';

/** What is kept with an upload, set by the server at creation (the client's keys are only read). */
export interface UploadMeta {
  owner: string;
  exercise?: string;
  chapter?: string;
  filename: string;
}

const uuid = z.uuid();

/** Who sends a request to tus, and for a creation what is kept with the upload and its id (reserved: decision 133). */
export interface UploadCaller {
  auth: AuthContext;
  meta?: UploadMeta;
  id?: string;
}

/** A checked creation: what is kept, the declared size and the size limit of what the upload is for. */
export interface CheckedCreation {
  meta: UploadMeta;
  size: number;
  limit: number;
}

/**
 * The tus protocol's answers in English, by their body, and in French for the client and the tests.
 * Statuses the protocol fixes stay (409 and 423 make the client retry; 404 and 410 start over).
 */
const TUS_MESSAGES: Array<[RegExp, string]> = [
  [/^Upload-Offset conflict/, 'La reprise ne part pas du bon endroit : l’envoi reprend à la position que le serveur a reçue.'],
  [/^Upload-Offset header required/, 'Position de l’envoi (Upload-Offset) manquante.'],
  [/^Content-Type header required/, 'Type de contenu attendu : application/offset+octet-stream.'],
  [/^Invalid upload-offset/i, 'Position de l’envoi (Upload-Offset) invalide.'],
  [/^Invalid content-type/i, 'Type de contenu attendu : application/offset+octet-stream.'],
  [/^Invalid /, 'En-tête d’envoi invalide.'],
  [/^Tus-Resumable Required/, 'Ce client d’envoi n’est pas pris en charge (protocole tus 1.0.0 attendu).'],
  [/^The file for this url was not found/, UPLOAD_NOT_FOUND_MESSAGE],
  [/^The file for this url no longer exists/, 'Cet envoi a expiré : recommencez l’envoi du fichier.'],
  [/size exceeded|Maximum size exceeded/i, 'L’envoi dépasse la taille annoncée au départ.'],
  [/^Request aborted/, 'Envoi interrompu par une reprise plus récente.'],
  [/^Cannot terminate an already completed upload/, 'Cet envoi est terminé : il ne peut plus être annulé.'],
  [/lock before timeout/, 'Cet envoi est occupé par une autre connexion : nouvel essai dans un instant.'],
  [/^Something went wrong receiving the file/, 'Envoi interrompu : il reprendra là où il s’est arrêté.'],
];

/** A tus error answer (status and English body) as the API's `{ message }` in French. */
export function frenchTusError(status: number, body: string): { status: number; message: string } {
  const found = TUS_MESSAGES.find(([pattern]) => pattern.test(body));
  if (found) return { status, message: found[1] };
  if (status === 404) return { status, message: UPLOAD_NOT_FOUND_MESSAGE };
  if (status >= 500) return { status, message: 'L’envoi a échoué sur le serveur : réessayez dans un instant.' };
  return { status, message: 'Requête d’envoi invalide.' };
}

/**
 * Reads and checks what a creation (POST /uploads) asks for, before any byte: the protocol version,
 * a declared size within the limit of what the file is for, and the same target as POST /pdfs
 * (`exercise` or `chapter`, which the caller must be allowed to upload for now). Returns what is kept;
 * the route then reserves the room (quota.ts `reserveUpload`).
 */
export async function checkCreation(
  deps: { db: Db; config: Config },
  auth: AuthContext,
  headers: Record<string, string | string[] | undefined>,
): Promise<CheckedCreation> {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  if (header('tus-resumable') !== TUS_RESUMABLE) {
    throw new AppError(412, 'Ce client d’envoi n’est pas pris en charge (protocole tus 1.0.0 attendu).');
  }
  if (header('upload-concat') !== undefined) throw badRequest('Les envois en plusieurs morceaux parallèles ne sont pas pris en charge.');
  if (header('upload-defer-length') !== undefined) throw badRequest('La taille du fichier doit être annoncée au début de l’envoi.');
  const length = header('upload-length');
  if (length === undefined || !/^\d{1,15}$/.test(length)) throw badRequest('Taille du fichier (Upload-Length) manquante ou invalide.');
  const size = Number(length);
  if (size === 0) throw badRequest('Le fichier est vide.');

  let given: Record<string, string | null> = {};
  const raw = header('upload-metadata');
  if (raw !== undefined && raw.trim() !== '') {
    try {
      given = Metadata.parse(raw);
    } catch {
      throw badRequest('Description de l’envoi (Upload-Metadata) illisible.');
    }
  }
  const exercise = given.exercise || undefined;
  const chapter = given.chapter || undefined;
  if (exercise && !uuid.safeParse(exercise).success) throw badRequest('Exercice invalide.');
  if (chapter && !uuid.safeParse(chapter).success) throw badRequest('Chapitre invalide.');
  const target = exercise ? { exerciseId: exercise } : { chapterId: chapter };
  await authorizeUploadTarget(deps.db, auth, target);
  const limit = limitOf(deps.config, exercise ? 'exercise' : 'chapter');
  if (size > limit) throw tooLarge(limit);
  const meta = {
    owner: auth.userId,
    ...(exercise ? { exercise } : { chapter }),
    filename: cleanName(given.filename ?? given.name ?? ''),
  };
  return { meta, size, limit };
}

/**
 * The size limit of what a file is for: a pupil's copy is a PDF like POST /pdfs's (MAX_PDF_MB), a
 * chapter's scan may be a whole copier batch (MAX_SCAN_MB).
 */
export function limitOf(config: Config, kind: 'exercise' | 'chapter'): number {
  return kind === 'exercise' ? config.maxPdfBytes : Math.max(config.maxScanBytes, config.maxPdfBytes);
}

const metaOf = (upload: { metadata?: Record<string, string | null> }): UploadMeta => ({
  owner: upload.metadata?.owner ?? '',
  exercise: upload.metadata?.exercise ?? undefined,
  chapter: upload.metadata?.chapter ?? undefined,
  filename: upload.metadata?.filename ?? '',
});

export type Uploads = ReturnType<typeof openUploads>;

type UploadDeps = { db: Db; config: Config; store: FileStore; log: FastifyBaseLogger };

const removeQuietly = async (datastore: TusFileStore, id: string) => {
  try {
    await datastore.remove(id);
  } catch {
    // Already gone (expired, or removed by another request): nothing to do.
  }
};

/**
 * The last byte is in: the same check and records as POST /pdfs, under the upload's id. A refusal
 * (4xx) removes the bytes, as POST /pdfs keeps nothing; a failure of the server (database, busy PDF
 * workers) keeps them, and the client's next try finishes the upload without sending it again.
 */
async function finishUpload(
  deps: UploadDeps,
  datastore: TusFileStore,
  directory: string,
  auth: AuthContext,
  upload: Upload,
): Promise<{ path: string }> {
  const meta = metaOf(upload);
  const [done] = await deps.db.select({ id: files.id }).from(files).where(eq(files.id, upload.id));
  if (done) {
    await removeQuietly(datastore, upload.id);
    await releaseUpload(deps.db, upload.id);
    return { path: `pdfs/${upload.id}.pdf` };
  }
  const bytes = await readFile(path.join(directory, upload.id));
  try {
    const result = await uploadPdf(
      { db: deps.db, store: deps.store, config: deps.config, maxPdfBytes: limitOf(deps.config, meta.exercise ? 'exercise' : 'chapter') },
      auth,
      { bytes, originalName: meta.filename, exerciseId: meta.exercise, chapterId: meta.chapter, id: upload.id },
    );
    await removeQuietly(datastore, upload.id);
    // The file now counts in its owner's stored bytes; its reservation is given back (decision 133).
    await releaseUpload(deps.db, upload.id);
    return result;
  } catch (err) {
    if (err instanceof AppError && err.statusCode < 500) {
      await removeQuietly(datastore, upload.id);
      await releaseUpload(deps.db, upload.id);
    }
    throw err;
  }
}

/** The tus server: ids reserved at creation, the caller of each request, the last byte checked by `finish`. */
function tusServer(
  deps: UploadDeps,
  datastore: TusFileStore,
  pending: WeakMap<Request, UploadCaller>,
  finish: (auth: AuthContext, upload: Upload) => Promise<{ path: string }>,
) {
  return new Server({
    path: UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    // The hard ceiling; each upload's own limit was checked at creation (checkCreation).
    maxSize: Math.max(deps.config.maxScanBytes, deps.config.maxPdfBytes),
    // Same-origin only: no CORS headers.
    allowedOrigins: [],
    disableTerminationForFinishedUploads: true,
    // The id reserved at creation (decision 133): the reservation, the upload and the file share it.
    namingFunction: (req) => pending.get(req)?.id ?? randomUUID(),
    async onUploadCreate(req, upload) {
      const caller = pending.get(req);
      if (!caller?.meta || caller.id !== upload.id) throw new AppError(400, 'Requête d’envoi invalide.');
      return { metadata: { ...caller.meta } };
    },
    async onUploadFinish(req, upload) {
      const caller = pending.get(req);
      if (!caller) throw new AppError(400, 'Requête d’envoi invalide.');
      const result = await finish(caller.auth, upload);
      return { status_code: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(result) };
    },
    onResponseError(_req, err) {
      if (err instanceof AppError) return { status_code: err.statusCode, body: JSON.stringify({ message: err.message, code: err.code }) };
      if (err instanceof Error) {
        deps.log.error({ err }, 'resumable upload failed');
        return {
          status_code: 500,
          body: JSON.stringify({ message: 'L’envoi a échoué sur le serveur : réessayez dans un instant.', code: 'internal' }),
        };
      }
      return undefined;
    },
  });
}

/**
 * The tus server of this instance and what the routes need around it. `remember` ties a request
 * built by the routes to its caller, so the tus hooks (creation, last byte) know who asks.
 */
export function openUploads(deps: UploadDeps) {
  const directory = path.join(deps.config.dataDir, 'uploads');
  mkdirSync(directory, { recursive: true });
  const datastore = new TusFileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  const pending = new WeakMap<Request, UploadCaller>();
  /** Uploads whose last byte is being checked and recorded in this instance, by id. */
  const finishing = new Map<string, Promise<{ path: string }>>();

  /** One check per upload at a time in this instance: a second caller waits for the running one. */
  function finish(auth: AuthContext, upload: Upload): Promise<{ path: string }> {
    const running = finishing.get(upload.id);
    if (running) return running;
    const run = finishUpload(deps, datastore, directory, auth, upload);
    finishing.set(upload.id, run);
    void run.then(
      () => finishing.delete(upload.id),
      () => finishing.delete(upload.id),
    );
    return run;
  }

  const tus = tusServer(deps, datastore, pending, finish);

  /** The upload's kept description when the caller owns it; otherwise 404 (another's upload is not revealed). */
  async function ownUpload(auth: AuthContext, id: string): Promise<Upload> {
    let upload: Upload;
    try {
      upload = await datastore.getUpload(id);
    } catch {
      throw notFound(UPLOAD_NOT_FOUND_MESSAGE);
    }
    if (!canResumeUpload(auth, metaOf(upload))) throw notFound(UPLOAD_NOT_FOUND_MESSAGE);
    return upload;
  }

  return {
    tus,
    directory,
    remember(req: Request, caller: UploadCaller) {
      pending.set(req, caller);
    },
    ownUpload,
    /** Gives back a creation's reservation: tus refused it, or the upload was cancelled. */
    release: (id: string) => releaseUpload(deps.db, id),
    /**
     * HEAD of an upload whose last byte already arrived: its size once it is recorded (the tus answer
     * is then offset = length, the client's « done »), waiting for a check still running here, and
     * finishing one whose check failed on the server's side earlier. Null: an unfinished upload, for tus.
     */
    async finishedSize(auth: AuthContext, id: string): Promise<number | null> {
      await finishing.get(id)?.catch(() => undefined);
      const [row] = await deps.db
        .select({ size: files.size })
        .from(files)
        .where(and(eq(files.id, id), eq(files.ownerId, auth.userId)));
      if (row) return row.size;
      // The tus store's offset is what the file on disk holds.
      const upload = await ownUpload(auth, id);
      if (upload.size === undefined || upload.offset < upload.size) return null;
      await finish(auth, upload);
      return upload.size;
    },
    /** Removes the unfinished uploads past UPLOAD_EXPIRY_MS, and the reservations past their time; returns how many uploads. */
    async cleanUp(): Promise<number> {
      const removed = await tus.cleanUpExpiredUploads();
      await purgeExpiredSlots(deps.db);
      return removed;
    },
  };
}
