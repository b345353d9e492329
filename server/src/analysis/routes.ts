import { chapterAnalysisSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { getChapterAnalysis } from './service.js';

const chapterIdParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });

/** Cheat analysis (docs/product.md#spec-2 "Analyse de la triche", §7; docs/product.md#design-3 "Who may call what": admins only). */
export const analysisRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/answer/analysis/:chapterId',
    {
      preHandler: requireRole('admin'),
      schema: { tags: ['analysis'], params: chapterIdParams, response: { 200: chapterAnalysisSchema } },
    },
    async (request) => getChapterAnalysis(deps.db, request.params.chapterId),
  );
};
