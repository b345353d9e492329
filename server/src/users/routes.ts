import { logtoResultSchema, logtoSchema, userSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { rolesOf } from '../groups/service.js';
import { assertCanSeeUser, impersonateUser } from './impersonation.js';
import { getUserById } from './service.js';

export const userRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/user/logto',
    {
      preHandler: requireRole('admin'),
      schema: { tags: ['users'], body: logtoSchema, response: { 200: logtoResultSchema } },
    },
    async (request) => ({ token: await impersonateUser(deps, authOf(request), request.body.uid, request.ip) }),
  );

  app.get(
    '/user/:uid',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['users'],
        params: z.object({ uid: z.uuid({ error: 'Identifiant d’utilisateur invalide.' }) }),
        response: { 200: userSchema },
      },
    },
    async (request) => {
      const { uid } = request.params;
      assertCanSeeUser(authOf(request), uid);
      return getUserById(deps.db, uid, await rolesOf(deps.db, uid));
    },
  );
};
