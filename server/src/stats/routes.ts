import { chapterStatsSchema, errataResultSchema, errataSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { applyErrata, getChapterStats } from './service.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const tags = ['stats'];

/** Statistics (correctors and admins) and errata (admins), decision 75. */
export const statsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/stats/:chapterId',
    { preHandler: requireRole('member'), schema: { tags, params: chapterParams, response: { 200: chapterStatsSchema } } },
    async (request) => getChapterStats(deps.db, request.params.chapterId),
  );

  app.post(
    '/stats/:chapterId/errata',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: chapterParams, body: errataSchema, response: { 200: errataResultSchema } },
    },
    async (request) => applyErrata(deps.db, authOf(request), request.params.chapterId, request.body),
  );
};
