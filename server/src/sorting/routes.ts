import { unlabeledAnswerSchema, unlabeledCreateSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { listUnlabeled, registerUnlabeled } from './unlabeled.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const tags = ['sorting'];

/** Scanned copies: filed by school staff (or members), then sorted by members (later routes). */
export const sortingRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/answer/unlabeled/:chapterId',
    {
      preHandler: requireRole('teacher', 'member'),
      schema: {
        tags,
        params: chapterParams,
        body: unlabeledCreateSchema,
        // No `message`: a multi-file drop shows one summary, not one notification per file.
        response: { 201: z.object({ _id: z.string() }) },
      },
    },
    async (request, reply) => {
      const created = await registerUnlabeled(deps.db, authOf(request), request.params.chapterId, request.body);
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/answer/unlabeled/:chapterId',
    {
      preHandler: requireRole('teacher', 'member'),
      schema: { tags, params: chapterParams, response: { 200: z.array(unlabeledAnswerSchema) } },
    },
    async (request) => listUnlabeled(deps.db, authOf(request), request.params.chapterId),
  );
};
