import {
  ownQualificationSchema,
  publishedSelectionsSchema,
  PAST_INSTANT_MESSAGE,
  savedMessageSchema,
  schoolQualifiedSchema,
  selectionPublicationSchema,
} from '@olympe/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { loadVersionList, versionWorkbook } from './exports.js';
import { figuresWorkbook } from './figures.js';
import { qualificationLetter } from './letter.js';
import { listOwnQualifications } from './own.js';
import { updateSelectionPublication } from './publication.js';
import { listPublishedSelections } from './published.js';
import { schoolQualified, schoolWorkbook } from './school.js';

const tags = ['selections'];
const idParams = z.object({ id: z.uuid({ error: 'Identifiant de sélection invalide.' }) });
const userQuery = z.object({ user: z.uuid({ error: 'Identifiant d’élève invalide.' }).optional() });
const institutionQuery = z.object({ institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).optional() });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An attachment with its French name (ASCII fallback for old clients), as the results' files. */
function attachment(reply: FastifyReply, name: string, type: string) {
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim();
  const ascii = safe
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '_');
  return reply.type(type).header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`);
}

/** After the decision: publication, a pupil's qualification and letter, schools' lists, exports (decision 157). */
export const selectionAfterRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/selection/mine',
    { preHandler: requireAuth, schema: { tags, response: { 200: z.array(ownQualificationSchema) } } },
    async (request) => listOwnQualifications(deps.db, authOf(request)),
  );

  app.put(
    '/selection/:id/publication',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: idParams, body: selectionPublicationSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      const outcome = await updateSelectionPublication(deps.db, authOf(request), request.params.id, request.body);
      if (outcome.pastInstant) return { message: PAST_INSTANT_MESSAGE };
      const messages = { now: 'Sélection publiée', scheduled: 'Publication programmée', unpublished: 'Publication retirée' };
      return { message: messages[outcome.mode] };
    },
  );

  app.get(
    '/selection/:id/letter',
    { preHandler: requireAuth, schema: { tags, params: idParams, querystring: userQuery } },
    async (request, reply) => {
      const file = await qualificationLetter(deps.db, authOf(request), request.params.id, request.query.user);
      return attachment(reply, `Lettre de qualification - ${file.title}.pdf`, 'application/pdf').send(Buffer.from(file.bytes));
    },
  );

  app.get(
    '/selection/published',
    { preHandler: requireRole('teacher'), schema: { tags, response: { 200: publishedSelectionsSchema } } },
    async () => listPublishedSelections(deps.db),
  );

  app.get(
    '/selection/:id/school',
    {
      preHandler: requireRole('teacher'),
      schema: { tags, params: idParams, querystring: institutionQuery, response: { 200: schoolQualifiedSchema } },
    },
    async (request) => (await schoolQualified(deps.db, authOf(request), request.params.id, request.query.institution)).pupils,
  );

  app.get(
    '/selection/:id/school.xlsx',
    { preHandler: requireRole('teacher'), schema: { tags, params: idParams, querystring: institutionQuery } },
    async (request, reply) => {
      const found = await schoolQualified(deps.db, authOf(request), request.params.id, request.query.institution);
      return attachment(reply, `Qualifiés - ${found.title} - ${found.institution}.xlsx`, XLSX).send(await schoolWorkbook(found.pupils));
    },
  );

  app.get('/selection/:id/export.xlsx', { preHandler: requireAuth, schema: { tags, params: idParams } }, async (request, reply) => {
    const { selection, version, participants } = await loadVersionList(deps.db, authOf(request), request.params.id);
    return attachment(reply, `Liste - ${selection.title} - version ${version.number}.xlsx`, XLSX).send(
      await versionWorkbook(version, participants),
    );
  });

  app.get('/selection/:id/figures.xlsx', { preHandler: requireAuth, schema: { tags, params: idParams } }, async (request, reply) => {
    const { selection, version, participants } = await loadVersionList(deps.db, authOf(request), request.params.id);
    return attachment(reply, `Chiffres - ${selection.title}.xlsx`, XLSX).send(await figuresWorkbook(version, participants));
  });
};
