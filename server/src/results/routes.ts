import {
  deletionImpactSchema,
  previewOptionsSchema,
  institutionResultsSchema,
  publicationSchema,
  publicationUpdateSchema,
  PAST_INSTANT_MESSAGE,
  stillAnsweringSchema,
  resultsCardSchema,
  returnedCopiesSchema,
  savedMessageSchema,
} from '@olympe/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { chapterCertificatesZip, ownCertificate } from './certificates.js';
import { presentInstitutionResults, presentResultsCard, presentReturnedCopies } from './presenters.js';
import { loadReturnedCopies } from './returned-copies.js';
import { correctedCopyPdf } from './copies-pdf.js';
import { institutionCopiesZip } from './copies-zip.js';
import { openFileStore } from '../files/store-select.js';
import { getPublication, loadInstitutionResults, loadOwnResults, loadPreview, updatePublication } from './service.js';
import { chapterDeletionImpact, exerciseDeletionImpact } from '../chapters/deletion-impact.js';
import { groupDeletionImpact } from '../groups/deletion-impact.js';
import { getGradingTable } from '../grading/table.js';
import { chapterGradesWorkbook, institutionWorkbook } from './xlsx.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const previewParams = chapterParams.extend({ userId: z.uuid({ error: 'Identifiant d’élève invalide.' }) });
const idParams = z.object({ id: z.uuid({ error: 'Identifiant invalide.' }) });
const institutionQuery = z.object({ institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).optional() });
const copyParams = chapterParams.extend({
  file: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/, { error: 'Exercice invalide.' }),
});
const userQuery = z.object({ user: z.uuid({ error: 'Identifiant d’élève invalide.' }).optional() });
const tags = ['results'];

/** An attachment with its French name (ASCII fallback for old clients). */
function attachment(reply: FastifyReply, name: string, type: string) {
  const ascii = name
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '_');
  return reply.type(type).header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`);
}

const fileTitle = (title: string) => title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'épreuve';

/**
 * Results: publication (admins, decisions 69–72), a pupil's own card and certificate, a school's results
 * for its staff, deletion counts for the confirmation dialogs.
 */
export const resultsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const admin = requireRole('admin');
  const store = openFileStore(deps);

  app.get(
    '/results/:chapterId',
    { preHandler: requireAuth, schema: { tags, params: chapterParams, response: { 200: resultsCardSchema } } },
    async (request) => {
      const auth = authOf(request);
      const { results, grades } = await loadOwnResults(deps.db, auth, request.params.chapterId);
      return presentResultsCard(results, auth.userId, grades);
    },
  );

  app.get(
    '/results/:chapterId/preview/:userId',
    { preHandler: admin, schema: { tags, params: previewParams, querystring: previewOptionsSchema, response: { 200: resultsCardSchema } } },
    async (request) => {
      const { results, grades } = await loadPreview(deps.db, request.params.chapterId, request.params.userId, request.query);
      return presentResultsCard(results, request.params.userId, grades);
    },
  );

  app.get(
    '/results/:chapterId/publication',
    { preHandler: admin, schema: { tags, params: chapterParams, response: { 200: publicationSchema } } },
    async (request) => getPublication(deps.db, request.params.chapterId),
  );

  app.put(
    '/results/:chapterId/publication',
    {
      preHandler: admin,
      schema: {
        tags,
        params: chapterParams,
        body: publicationUpdateSchema,
        response: { 200: savedMessageSchema, 409: stillAnsweringSchema },
      },
    },
    async (request) => {
      const outcome = await updatePublication(deps.db, authOf(request), request.params.chapterId, request.body);
      if (outcome.pastInstant) return { message: PAST_INSTANT_MESSAGE };
      const messages = { now: 'Résultats publiés', scheduled: 'Publication programmée', unpublished: 'Publication retirée' };
      return { message: messages[outcome.mode] };
    },
  );

  app.get(
    '/results/:chapterId/institution',
    {
      preHandler: requireRole('teacher'),
      schema: { tags, params: chapterParams, querystring: institutionQuery, response: { 200: institutionResultsSchema } },
    },
    async (request) => {
      const found = await loadInstitutionResults(deps.db, authOf(request), request.params.chapterId, request.query.institution);
      return presentInstitutionResults(found.results, found.institution, found.pupils, found.grades);
    },
  );

  app.get(
    '/results/:chapterId/institution.xlsx',
    { preHandler: requireRole('teacher'), schema: { tags, params: chapterParams, querystring: institutionQuery } },
    async (request, reply) => {
      const found = await loadInstitutionResults(deps.db, authOf(request), request.params.chapterId, request.query.institution);
      const results = presentInstitutionResults(found.results, found.institution, found.pupils, found.grades);
      const bytes = await institutionWorkbook(results);
      const name = `Résultats - ${fileTitle(results.chapter.title)} - ${fileTitle(results.institution.name)}.xlsx`;
      return attachment(reply, name, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(bytes);
    },
  );

  app.get('/results/:chapterId/grades.xlsx', { preHandler: admin, schema: { tags, params: chapterParams } }, async (request, reply) => {
    const table = await getGradingTable(deps.db, authOf(request), request.params.chapterId);
    const bytes = await chapterGradesWorkbook(table);
    return attachment(
      reply,
      `Notes - ${fileTitle(table.chapter.title)}.xlsx`,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ).send(bytes);
  });

  app.get(
    '/results/:chapterId/certificate.pdf',
    { preHandler: requireAuth, schema: { tags, params: chapterParams, querystring: userQuery } },
    async (request, reply) => {
      const file = await ownCertificate(deps.db, authOf(request), request.params.chapterId, request.query.user);
      return attachment(reply, file.fileName, 'application/pdf').send(Buffer.from(file.bytes));
    },
  );

  app.get(
    '/results/:chapterId/certificates.zip',
    { preHandler: admin, schema: { tags, params: chapterParams } },
    async (request, reply) => {
      const { title, chunks } = await chapterCertificatesZip(deps.db, request.params.chapterId);
      return attachment(reply, `Attestations - ${fileTitle(title)}.zip`, 'application/zip').send(Readable.from(chunks));
    },
  );

  // Decision 162: the corrected copies, once published and returned (admins: any pupil, any time).
  app.get(
    '/results/:chapterId/copies',
    { preHandler: requireAuth, schema: { tags, params: chapterParams, querystring: userQuery, response: { 200: returnedCopiesSchema } } },
    async (request) => {
      const found = await loadReturnedCopies(deps.db, authOf(request), request.params.chapterId, request.query.user);
      return presentReturnedCopies(found.chapter, found.copies);
    },
  );

  app.get(
    '/results/:chapterId/copies.zip',
    { preHandler: requireRole('teacher'), schema: { tags, params: chapterParams, querystring: institutionQuery } },
    async (request, reply) => {
      const found = await institutionCopiesZip(deps.db, store, authOf(request), request.params.chapterId, request.query.institution);
      const name = `Copies corrigées - ${fileTitle(found.title)} - ${fileTitle(found.institution)}.zip`;
      return attachment(reply, name, 'application/zip').send(Readable.from(found.chunks));
    },
  );

  app.get(
    '/results/:chapterId/copies/:file',
    { preHandler: requireAuth, schema: { tags, params: copyParams, querystring: userQuery } },
    async (request, reply) => {
      const { chapterId, file } = request.params;
      const copy = await correctedCopyPdf(deps.db, store, authOf(request), chapterId, file.slice(0, -4), request.query.user);
      return attachment(reply, copy.fileName, 'application/pdf').send(Buffer.from(copy.bytes));
    },
  );

  app.get(
    '/results/impact/chapter/:id',
    { preHandler: admin, schema: { tags, params: idParams, response: { 200: deletionImpactSchema } } },
    async (request) => chapterDeletionImpact(deps.db, request.params.id),
  );

  app.get(
    '/results/impact/exercise/:id',
    { preHandler: admin, schema: { tags, params: idParams, response: { 200: deletionImpactSchema } } },
    async (request) => exerciseDeletionImpact(deps.db, request.params.id),
  );

  app.get(
    '/results/impact/group/:id',
    { preHandler: admin, schema: { tags, params: idParams, response: { 200: z.object({ members: z.number().int() }) } } },
    async (request) => groupDeletionImpact(deps.db, request.params.id),
  );
};
