import {
  centerMemberSchema,
  centerOptionSchema,
  centerOverviewSchema,
  centerPatchSchema,
  centerRefusalSchema,
  centerSchema,
  savedMessageSchema,
  userCenterPatchSchema,
  userCenterSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { getCenter, listCenterMembers, updateCenter } from './center.js';
import { getCenterOverview } from './overview.js';
import { refuseRegistration } from './refusal.js';
import { getUserCenter, listCenterOptions, registerAtCenter } from './registration.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
/** Admins name the centre they look at; school staff always get their own (a different one is 403). */
const institutionQuery = z.object({ institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).optional() });
const tags = ['centers'];

export const centerRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/center/institutions/:chapterId',
    { preHandler: requireAuth, schema: { tags, params: chapterParams, response: { 200: z.array(centerOptionSchema) } } },
    async (request) => listCenterOptions(deps.db, authOf(request), request.params.chapterId),
  );

  app.get(
    '/center/user/:chapterId',
    { preHandler: requireAuth, schema: { tags, params: chapterParams, response: { 200: userCenterSchema } } },
    async (request) => getUserCenter(deps.db, authOf(request), request.params.chapterId),
  );

  app.patch(
    '/center/user/:chapterId',
    {
      preHandler: requireAuth,
      schema: { tags, params: chapterParams, body: userCenterPatchSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      await registerAtCenter(deps.db, authOf(request), request.params.chapterId, request.body.institution);
      return { message: 'Centre d’examen enregistré' };
    },
  );

  app.post(
    '/center/refuse/:chapterId',
    {
      preHandler: requireRole('teacher'),
      schema: { tags, params: chapterParams, body: centerRefusalSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      const { user, institution } = request.body;
      await refuseRegistration(deps.db, authOf(request), request.params.chapterId, user, institution);
      return { message: 'Inscription refusée : l’élève est prévenu et choisira un autre centre' };
    },
  );

  app.get(
    '/center/users/:chapterId',
    {
      preHandler: requireRole('teacher'),
      schema: { tags, params: chapterParams, querystring: institutionQuery, response: { 200: z.array(centerMemberSchema) } },
    },
    async (request) => listCenterMembers(deps.db, authOf(request), request.params.chapterId, request.query.institution),
  );

  app.get(
    '/center/overview/:chapterId',
    { preHandler: requireRole('admin'), schema: { tags, params: chapterParams, response: { 200: centerOverviewSchema } } },
    async (request) => getCenterOverview(deps.db, request.params.chapterId),
  );

  app.get(
    '/center/:chapterId',
    {
      preHandler: requireRole('teacher'),
      schema: { tags, params: chapterParams, querystring: institutionQuery, response: { 200: centerSchema } },
    },
    async (request) => getCenter(deps.db, authOf(request), request.params.chapterId, request.query.institution),
  );

  app.patch(
    '/center/:chapterId',
    {
      preHandler: requireRole('teacher'),
      schema: { tags, params: chapterParams, body: centerPatchSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      await updateCenter(deps.db, authOf(request), request.params.chapterId, request.body);
      return { message: 'Modifications enregistrées' };
    },
  );
};
