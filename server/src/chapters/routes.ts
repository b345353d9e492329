import {
  binEntrySchema,
  chapterCreateSchema,
  chapterDetailSchema,
  chapterPatchSchema,
  chapterSummarySchema,
  savedMessageSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { createChapter, deleteChapter, getChapterDetail, listBin, listVisibleChapters, restoreChapter, updateChapter } from './service.js';

const idParams = z.object({ id: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const tags = ['chapters'];

export const chapterRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get('/chapter', { preHandler: requireAuth, schema: { tags, response: { 200: z.array(chapterSummarySchema) } } }, async (request) =>
    listVisibleChapters(deps.db, authOf(request)),
  );

  app.get(
    '/chapter/:id',
    { preHandler: requireAuth, schema: { tags, params: idParams, response: { 200: chapterDetailSchema } } },
    async (request) => getChapterDetail(deps.db, authOf(request), request.params.id),
  );

  app.post(
    '/chapter',
    {
      preHandler: requireRole('admin'),
      schema: { tags, body: chapterCreateSchema, response: { 201: chapterSummarySchema.extend({ message: z.string() }) } },
    },
    async (request, reply) => {
      const chapter = await createChapter(deps.db, authOf(request), request.body);
      return reply.status(201).send({ ...chapter, message: 'Chapitre créé' });
    },
  );

  app.patch(
    '/chapter/:id',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: idParams, body: chapterPatchSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      await updateChapter(deps.db, authOf(request), request.params.id, request.body);
      return { message: 'Modifications enregistrées' };
    },
  );

  app.delete(
    '/chapter/:id',
    { preHandler: requireRole('admin'), schema: { tags, params: idParams, response: { 200: savedMessageSchema } } },
    async (request) => {
      await deleteChapter(deps.db, authOf(request), request.params.id);
      return { message: 'Chapitre placé dans la corbeille' };
    },
  );

  app.post(
    '/chapter/:id/restore',
    { preHandler: requireRole('admin'), schema: { tags, params: idParams, response: { 200: savedMessageSchema } } },
    async (request) => {
      await restoreChapter(deps.db, authOf(request), request.params.id);
      return { message: 'Chapitre restauré' };
    },
  );

  app.get('/bin', { preHandler: requireRole('admin'), schema: { tags, response: { 200: z.array(binEntrySchema) } } }, async () =>
    listBin(deps.db),
  );
};
