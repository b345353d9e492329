import { ownQualificationSchema, PAST_INSTANT_MESSAGE, savedMessageSchema, selectionPublicationSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { listOwnQualifications } from './own.js';
import { updateSelectionPublication } from './publication.js';

const tags = ['selections'];
const idParams = z.object({ id: z.uuid({ error: 'Identifiant de sélection invalide.' }) });

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
};
