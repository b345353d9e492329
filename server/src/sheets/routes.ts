import { pdfLinkSchema, sheetLinkQuerySchema, sheetQuerySchema } from '@olympe/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { openFileStore } from '../files/store-select.js';
import { startJobWorker, type JobWorker } from '../jobs/worker.js';
import { jobHandlers } from './jobs.js';
import { authorizeSheets, buildSheets, loadSheetInput, signSheetLink, verifySheetSignature, type SheetRequest } from './service.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const signed = {
  exp: z.coerce.number({ error: 'Lien invalide.' }).int({ error: 'Lien invalide.' }).optional(),
  sig: z.string().max(100).optional(),
};
const tags = ['sheets'];
/** Idle instances look for jobs added by other instances this often. */
const POLL_MS = 5000;

/**
 * Answer sheets with QR codes, and the background reading of uploaded scans. The job worker
 * lives with this plugin: started when the app is ready, stopped (after the job in hand) on close.
 */
export const sheetRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const store = openFileStore(deps);
  if (deps.config.jobsWorker !== false) {
    let worker: JobWorker | undefined;
    app.addHook('onReady', async () => {
      worker = startJobWorker(deps, jobHandlers(deps, store), { pollMs: POLL_MS });
    });
    app.addHook('onClose', async () => worker?.stop());
  }

  /**
   * A signed link serves exactly what it was signed for, without a header; otherwise the caller
   * must be school staff or an admin, and personalised sheets only for their own centre.
   */
  const resolve = (
    request: FastifyRequest,
    req: { chapterId: string; institution?: string; spare: number; blank: boolean; exp?: number; sig?: string },
  ): SheetRequest => {
    if (req.exp !== undefined && req.sig !== undefined) {
      const wanted: SheetRequest = {
        chapterId: req.chapterId,
        institutionId: req.blank ? null : (req.institution ?? null),
        spare: req.spare,
      };
      const complete = req.blank || wanted.institutionId !== null;
      if (complete && verifySheetSignature(deps.config.jwtSecret, wanted, req.exp, req.sig)) return wanted;
      if (!request.auth) throw new AppError(403, 'Ce lien a expiré ou n’est pas valide.');
    }
    return authorizeSheets(authOf(request), req.chapterId, req);
  };

  const send = async (reply: FastifyReply, req: SheetRequest) => {
    const { pdf, filename } = await buildSheets(deps.db, deps.config.jwtSecret, req);
    return reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  };

  /** Staff or admin, unless the request carries a signature (checked in the handler). */
  const staffOrSigned = async (request: FastifyRequest, reply: FastifyReply) => {
    const q = request.query as { exp?: unknown; sig?: unknown };
    if (q.exp !== undefined && q.sig !== undefined && !request.auth) return;
    await requireRole('teacher')(request, reply);
  };

  app.get(
    '/sheets/:chapterId.pdf',
    { preHandler: staffOrSigned, schema: { tags, params: chapterParams, querystring: sheetQuerySchema.extend(signed) } },
    async (request, reply) => send(reply, resolve(request, { ...request.params, ...request.query, blank: false })),
  );

  app.get(
    '/sheets/:chapterId/blank.pdf',
    {
      preHandler: staffOrSigned,
      schema: { tags, params: chapterParams, querystring: sheetQuerySchema.omit({ institution: true }).extend(signed) },
    },
    async (request, reply) => send(reply, resolve(request, { ...request.params, ...request.query, blank: true })),
  );

  app.get(
    '/sheets/:chapterId/link',
    {
      preHandler: requireRole('teacher'),
      schema: { tags, params: chapterParams, querystring: sheetLinkQuerySchema, response: { 200: pdfLinkSchema } },
    },
    async (request) => {
      const { blank, ...query } = request.query;
      const req = authorizeSheets(authOf(request), request.params.chapterId, { ...query, blank: blank === '1' });
      // Refuse now what the download would refuse (not a paper chapter, no pupil...), not after a click.
      await loadSheetInput(deps.db, deps.config.jwtSecret, req);
      return signSheetLink(deps.config.jwtSecret, req);
    },
  );
};
