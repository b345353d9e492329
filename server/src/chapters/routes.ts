import { chapterSummarySchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { listVisibleChapters } from './service.js';

export const chapterRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/chapter',
    { preHandler: requireAuth, schema: { tags: ['chapters'], response: { 200: z.array(chapterSummarySchema) } } },
    async (request) => listVisibleChapters(deps.db, authOf(request)),
  );
};
