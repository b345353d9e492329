import { groupSummarySchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { listVisibleGroups } from './service.js';

export const groupRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/group',
    { preHandler: requireAuth, schema: { tags: ['groups'], response: { 200: z.array(groupSummarySchema) } } },
    async (request) => listVisibleGroups(deps.db, authOf(request)),
  );
};
