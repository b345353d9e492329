import {
  myRegradesSchema,
  regradeAcceptSchema,
  regradeCreateSchema,
  regradeDeclineSchema,
  regradeQueueSchema,
  regradeWindowSchema,
  savedMessageSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { acceptRegrade, createRegradeRequest, declineRegrade, listMyRegrades, listRegradeQueue, setRegradeWindow } from './service.js';

const chapterId = z.uuid({ error: 'Identifiant de chapitre invalide.' });
const idParams = z.object({ id: z.uuid({ error: 'Identifiant de demande invalide.' }) });
const tags = ['regrade'];

/** Regrade requests (decision 74): pupils ask (their own answers), correctors and admins answer. */
export const regradeRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const corrector = requireRole('member');

  app.post(
    '/regrade',
    {
      // Any logged-in caller; the service admits only the author of the answer (403 otherwise).
      preHandler: requireAuth,
      schema: { tags, body: regradeCreateSchema, response: { 201: savedMessageSchema.extend({ _id: z.uuid() }) } },
    },
    async (request, reply) => {
      const created = await createRegradeRequest(deps.db, authOf(request), request.body);
      return reply.status(201).send({ ...created, message: 'Demande de réexamen envoyée' });
    },
  );

  app.get(
    '/regrade/mine/:chapterId',
    { preHandler: requireAuth, schema: { tags, params: z.object({ chapterId }), response: { 200: myRegradesSchema } } },
    async (request) => listMyRegrades(deps.db, authOf(request), request.params.chapterId),
  );

  app.get(
    '/regrade',
    { preHandler: corrector, schema: { tags, querystring: z.object({ chapter: chapterId }), response: { 200: regradeQueueSchema } } },
    async (request) => listRegradeQueue(deps.db, authOf(request), request.query.chapter),
  );

  app.post(
    '/regrade/:id/accept',
    { preHandler: corrector, schema: { tags, params: idParams, body: regradeAcceptSchema, response: { 200: savedMessageSchema } } },
    async (request) => {
      await acceptRegrade(deps.db, authOf(request), request.params.id, request.body);
      return { message: 'Demande acceptée : la nouvelle note est enregistrée' };
    },
  );

  app.post(
    '/regrade/:id/decline',
    { preHandler: corrector, schema: { tags, params: idParams, body: regradeDeclineSchema, response: { 200: savedMessageSchema } } },
    async (request) => {
      await declineRegrade(deps.db, authOf(request), request.params.id, request.body.reply);
      return { message: 'Demande refusée : la réponse est envoyée' };
    },
  );

  app.put(
    '/regrade/window/:chapterId',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: z.object({ chapterId }), body: regradeWindowSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      await setRegradeWindow(deps.db, authOf(request), request.params.chapterId, request.body.regradeUntil);
      return { message: 'Date de clôture des réexamens enregistrée' };
    },
  );
};
