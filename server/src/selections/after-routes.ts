import { ownQualificationSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { listOwnQualifications } from './own.js';

const tags = ['selections'];

/** After the decision: publication, a pupil's qualification and letter, schools' lists, exports (decision 157). */
export const selectionAfterRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/selection/mine',
    { preHandler: requireAuth, schema: { tags, response: { 200: z.array(ownQualificationSchema) } } },
    async (request) => listOwnQualifications(deps.db, authOf(request)),
  );
};
