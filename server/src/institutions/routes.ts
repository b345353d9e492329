import {
  geocodeQuerySchema,
  geocodeResponseSchema,
  type Institution,
  institutionCreateSchema,
  institutionSchema,
  institutionUpdateSchema,
  inViewQuerySchema,
  inViewResponseSchema,
  schoolSearchQuerySchema,
  schoolSearchResponseSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { hitRateLimit } from '../http/rate-limit.js';
import { geocode, GEOCODER_OFF } from './geocode.js';
import { notFound } from '../errors.js';
import {
  createInstitution,
  deleteInstitution,
  getInstitution,
  listInstitutionsInView,
  listInstitutionsJson,
  searchInstitutions,
  updateInstitution,
} from './service.js';

const idParams = z.object({ id: z.uuid({ error: 'Identifiant d’établissement invalide.' }) });
/** Address searches per user: a person placing schools one by one never comes near. */
export const GEOCODE_LIMIT = {
  limit: 30,
  windowSeconds: 60,
  message: 'Trop de recherches d’adresse en peu de temps. Patientez une minute avant de réessayer.',
};
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

  // Decision 89: the schools of a map's view, or clusters of them; the maps no longer load the whole list.
  app.get(
    '/institution/in-view',
    {
      preHandler: requireAuth,
      schema: { tags: ['institutions'], querystring: inViewQuerySchema, response: { 200: inViewResponseSchema } },
    },
    async (request) => listInstitutionsInView(deps.db, authOf(request), request.query),
  );

  // One school: the profile's current school (to open the map on it) and « Instruction en famille ».
  app.get(
    '/institution/:id',
    { preHandler: requireAuth, schema: { tags: ['institutions'], params: idParams, response: { 200: institutionSchema } } },
    async (request) => getInstitution(deps.db, authOf(request), request.params.id),
  );

  // Decision 87: the address search of /map, off (404) unless GEOCODER_URL is set.
  app.get(
    '/institution/geocode',
    {
      preHandler: requireAuth,
      schema: { tags: ['institutions'], querystring: geocodeQuerySchema, response: { 200: geocodeResponseSchema } },
    },
    async (request) => {
      const { userId } = authOf(request);
      if (!deps.config.geocoderUrl) throw notFound(GEOCODER_OFF);
      // Per user: the geocoder is a shared public service (Nominatim allows one request a second).
      await hitRateLimit(deps.limiter, { key: `geocode:${userId}`, ...GEOCODE_LIMIT });
      return { results: await geocode(deps.config.geocoderUrl, deps.config.publicUrl, request.query.q) };
    },
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
