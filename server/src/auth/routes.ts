import {
  confirmResultSchema,
  linkCheckSchema,
  logoutSchema,
  profileUpdateSchema,
  refreshSchema,
  returnPathSchema,
  sessionTokensSchema,
  userSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { getUserById, updateOwnProfile } from '../users/service.js';
import { authOf, requireAuth } from './context.js';
import { checkPasswordLink, confirmPassword, loginUser, REGISTER_MESSAGE, registerUser } from './service.js';
import { endSessions, refreshSession } from './sessions.js';

const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ error: 'Adresse e-mail invalide.' }));
const messageSchema = z.object({ message: z.string() });

export const authRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/auth/register',
    { schema: { tags: ['auth'], body: z.object({ email, retour: returnPathSchema }), response: { 200: messageSchema } } },
    async (request) => {
      await registerUser(deps, { email: request.body.email, returnTo: request.body.retour, ip: request.ip });
      return { message: REGISTER_MESSAGE };
    },
  );

  app.post(
    '/auth/confirm',
    {
      schema: {
        tags: ['auth'],
        body: z.object({
          token: z.string().min(1, { error: 'Lien incomplet.' }).max(200),
          password: z.string().max(256, { error: 'Mot de passe trop long.' }),
        }),
        response: { 200: confirmResultSchema },
      },
    },
    async (request) => ({
      message: 'Mot de passe enregistré : vous êtes connecté.',
      ...(await confirmPassword(deps, { ...request.body, ip: request.ip })),
    }),
  );

  app.get(
    '/auth/link/:token',
    {
      schema: {
        tags: ['auth'],
        params: z.object({ token: z.string().min(1, { error: 'Lien incomplet.' }).max(200, { error: 'Lien invalide.' }) }),
        response: { 200: linkCheckSchema },
      },
    },
    async (request) => checkPasswordLink(deps, { token: request.params.token, ip: request.ip }),
  );

  app.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        body: z.object({ email, password: z.string().min(1, { error: 'Mot de passe requis.' }).max(256) }),
        response: { 200: sessionTokensSchema },
      },
    },
    async (request) => loginUser(deps, { ...request.body, ip: request.ip }),
  );

  // Decision 136: a new 15-minute token for a live session. No bearer needed: the one it replaces has expired.
  app.post('/auth/refresh', { schema: { tags: ['auth'], body: refreshSchema, response: { 200: sessionTokensSchema } } }, async (request) =>
    refreshSession(deps, { refreshToken: request.body.refreshToken, ip: request.ip }),
  );

  // Decision 136: ends the caller's session on the server; its tokens are refused from now on.
  app.post(
    '/auth/logout',
    { preHandler: requireAuth, schema: { tags: ['auth'], body: logoutSchema.optional(), response: { 200: messageSchema } } },
    async (request) => {
      await endSessions(deps, authOf(request), request.body?.refreshTokens);
      return { message: 'Vous êtes déconnecté.' };
    },
  );

  app.put(
    '/auth/me',
    {
      preHandler: requireAuth,
      schema: { tags: ['auth'], body: profileUpdateSchema.optional(), response: { 200: userSchema } },
    },
    async (request) => {
      const auth = authOf(request);
      const body = request.body ?? {};
      return Object.keys(body).length === 0 ? getUserById(deps.db, auth.userId, auth) : updateOwnProfile(deps.db, deps.limiter, auth, body);
    },
  );
};
