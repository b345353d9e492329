import {
  type Institution,
  institutionCreateSchema,
  institutionSchema,
  institutionUpdateSchema,
  schoolSearchQuerySchema,
  schoolSearchResponseSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { createInstitution, deleteInstitution, listInstitutionsJson, searchInstitutions, updateInstitution } from './service.js';

const idParams = z.object({ id: z.uuid({ error: 'Identifiant d’établissement invalide.' }) });
const messageSchema = z.object({ message: z.string() });

export const institutionRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/institution',
    { preHandler: requireAuth, schema: { tags: ['institutions'], response: { 200: z.array(institutionSchema) } } },
    // The JSON comes ready from the database (see listInstitutionsJson): sent as is, not re-serialised.
    // Pending schools are filtered per caller: the list is never the same for everybody.
    async (request, reply) =>
      reply
        .type('application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send((await listInstitutionsJson(deps.db, authOf(request))) as unknown as Institution[]),
  );

  app.get(
    '/institution/search',
    {
      preHandler: requireAuth,
      schema: { tags: ['institutions'], querystring: schoolSearchQuerySchema, response: { 200: schoolSearchResponseSchema } },
    },
    async (request) => searchInstitutions(deps.db, authOf(request), request.query.q),
  );

  app.post(
    '/institution',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['institutions'],
        body: institutionCreateSchema,
        response: { 200: z.object({ message: z.string(), institution: institutionSchema }) },
      },
    },
    async (request) => ({
      message: 'Établissement enregistré',
      institution: await createInstitution(deps.db, authOf(request), request.body),
    }),
  );

  app.patch(
    '/institution/:id',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['institutions'],
        params: idParams,
        body: institutionUpdateSchema,
        response: { 200: z.object({ message: z.string(), institution: institutionSchema }) },
      },
    },
    async (request) => ({
      message: 'Modifications enregistrées',
      institution: await updateInstitution(deps.db, authOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/institution/:id',
    {
      preHandler: requireRole('admin'),
      schema: { tags: ['institutions'], params: idParams, response: { 200: messageSchema } },
    },
    async (request) => {
      await deleteInstitution(deps.db, request.params.id);
      return { message: 'Établissement supprimé' };
    },
  );
};
