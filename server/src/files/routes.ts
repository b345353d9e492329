import multipart from '@fastify/multipart';
import { pdfLinkSchema, pdfUploadedSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { AppError, badRequest, unauthorized } from '../errors.js';
import { hitUploadRate } from './quota.js';
import { startFileReaper } from './reaper.js';
import {
  assertCanSeeFile,
  assertFileExists,
  signPdfLink,
  tooLarge,
  uploadPdfWithinQuota,
  uploadPhotosWithinQuota,
  verifyPdfSignature,
} from './service.js';
import { openFileStore } from './store-select.js';
import { uploadRoutes } from './upload-routes.js';

const fileParams = z.object({
  file: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/, { error: 'Nom de fichier invalide.' }),
});
const idOf = (file: string) => file.slice(0, -4);
const uuidField = z.uuid();
/** Photos in one POST /pdfs/photos (decision 140): a proof of a few pages, with room to spare. */
export const MAX_PHOTOS = 20;

export const fileRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const store = openFileStore(deps);
  const maxPdfBytes = deps.config.maxPdfBytes;
  await app.register(multipart, { limits: { fileSize: maxPdfBytes, files: 1, fields: 10, fieldSize: 1000, parts: 12 } });
  // Resumable uploads (decision 91), in their own scope without body parsers.
  await app.register(uploadRoutes, { deps, store });
  // Files nothing uses after a day are removed (decision 133), by the instances that run background jobs.
  if (deps.config.jobsWorker !== false) {
    let reaper: ReturnType<typeof startFileReaper> | undefined;
    app.addHook('onReady', async () => {
      reaper = startFileReaper({ db: deps.db, store, log: deps.log, onReaped: (n) => app.metrics.countReapedFiles(n) });
    });
    app.addHook('onClose', async () => reaper?.stop());
  }

  app.post(
    '/pdfs',
    { preHandler: requireAuth, schema: { tags: ['files'], consumes: ['multipart/form-data'], response: { 200: pdfUploadedSchema } } },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(415, 'Un envoi multipart/form-data avec un fichier PDF est attendu.');
      const auth = authOf(request);
      // Counted before the body is read (decision 133): a flood is refused without reading its files.
      await hitUploadRate(deps, auth);
      const fields: Record<string, string> = {};
      let bytes: Buffer | undefined;
      let originalName = '';
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || bytes) {
              await part.toBuffer().catch(() => undefined);
              continue;
            }
            bytes = await part.toBuffer();
            originalName = part.filename ?? '';
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
      } catch (err) {
        throw multipartError(err, maxPdfBytes);
      }
      if (!bytes) throw badRequest('Aucun fichier reçu : choisissez un fichier PDF.');
      const exerciseId = fields.exercise || undefined;
      const chapterId = fields.chapter || undefined;
      if (exerciseId && !uuidField.safeParse(exerciseId).success) throw badRequest('Exercice invalide.');
      if (chapterId && !uuidField.safeParse(chapterId).success) throw badRequest('Chapitre invalide.');
      // `user` (docs/product.md#spec-7) is informative only: the owner is always the caller.
      return uploadPdfWithinQuota({ db: deps.db, store, config: deps.config, maxPdfBytes }, auth, {
        bytes,
        originalName,
        exerciseId,
        chapterId,
      });
    },
  );

  // Decision 140: a pupil's photos of a proof (JPEG, PNG, HEIC), made into one PDF in the PDF workers.
  app.post(
    '/pdfs/photos',
    { preHandler: requireAuth, schema: { tags: ['files'], consumes: ['multipart/form-data'], response: { 200: pdfUploadedSchema } } },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(415, 'Un envoi multipart/form-data avec des photos est attendu.');
      const auth = authOf(request);
      await hitUploadRate(deps, auth);
      const fields: Record<string, string> = {};
      const photos: Array<{ bytes: Buffer; name: string }> = [];
      let total = 0;
      try {
        const parts = request.parts({ limits: { fileSize: maxPdfBytes, files: MAX_PHOTOS, parts: MAX_PHOTOS + 10 } });
        for await (const part of parts) {
          if (part.type === 'file') {
            if (part.fieldname !== 'photos') {
              await part.toBuffer().catch(() => undefined);
              continue;
            }
            const bytes = await part.toBuffer();
            // All the photos together are held to the size limit of one PDF.
            total += bytes.length;
            if (total > maxPdfBytes) throw tooLarge(maxPdfBytes);
            photos.push({ bytes, name: part.filename ?? '' });
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
      } catch (err) {
        throw multipartError(err, maxPdfBytes, `Au plus ${MAX_PHOTOS} photos par envoi.`);
      }
      if (photos.length === 0) throw badRequest('Aucune photo reçue\u00a0: prenez ou choisissez une photo de votre copie.');
      const exerciseId = fields.exercise ?? '';
      if (!uuidField.safeParse(exerciseId).success) throw badRequest('Exercice invalide.');
      return uploadPhotosWithinQuota({ db: deps.db, store, config: deps.config, maxPdfBytes }, auth, { exerciseId, photos });
    },
  );

  app.get(
    '/pdfs/:file',
    {
      schema: {
        tags: ['files'],
        params: fileParams,
        querystring: z.object({
          exp: z.coerce.number({ error: 'Lien invalide.' }).int({ error: 'Lien invalide.' }).optional(),
          sig: z.string().max(100).optional(),
          download: z.enum(['1']).optional(),
        }),
      },
    },
    async (request, reply) => {
      const id = idOf(request.params.file);
      const { exp, sig } = request.query;
      if (exp !== undefined && sig !== undefined && verifyPdfSignature(deps.config.jwtSecret, id, exp, sig)) {
        await assertFileExists(deps.db, id);
      } else {
        if (!request.auth) {
          throw sig !== undefined ? new AppError(403, 'Ce lien a expiré ou n’est pas valide.') : unauthorized();
        }
        await assertCanSeeFile(deps.db, request.auth, id);
      }
      const bytes = await store.get(id);
      if (!bytes) throw new AppError(404, 'Fichier introuvable.');
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', `${request.query.download ? 'attachment' : 'inline'}; filename="${id}.pdf"`)
        .send(bytes);
    },
  );

  app.get(
    '/pdfs/:file/link',
    { preHandler: requireAuth, schema: { tags: ['files'], params: fileParams, response: { 200: pdfLinkSchema } } },
    async (request) => {
      const id = idOf(request.params.file);
      await assertCanSeeFile(deps.db, authOf(request), id);
      return signPdfLink(deps.config.jwtSecret, id);
    },
  );
};

/** @fastify/multipart's errors in French: a too large file is 413 and nothing is stored. */
function multipartError(err: unknown, maxPdfBytes: number, tooManyFiles = 'Un seul fichier par envoi.'): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxPdfBytes);
  if (code === 'FST_FILES_LIMIT') return new AppError(413, tooManyFiles);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new AppError(413, 'Trop de champs dans l’envoi.');
  if (err instanceof AppError) return err;
  // Anything else raised while reading the parts is a malformed or truncated body (busboy's
  // "Unexpected end of multipart data" has no code): the client's fault, nothing stored yet.
  return badRequest('Envoi interrompu ou invalide.');
}
