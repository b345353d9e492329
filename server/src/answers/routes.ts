import { answerSavedSchema, answerSaveSchema, myAnswerSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { limitAnswerSaves } from '../http/save-limit.js';
import { listMyChapterAnswers } from './my-answers.js';
import { saveAnswer } from './save.js';

export const answerRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    '/answer',
    {
      preHandler: [requireAuth, limitAnswerSaves],
      schema: { tags: ['answers'], body: answerSaveSchema, response: { 200: answerSavedSchema } },
    },
    async (request) => saveAnswer(deps.db, authOf(request), request.body, request.ip),
  );

  app.get(
    '/answer/chapter/:id',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['answers'],
        params: z.object({ id: z.uuid({ error: 'Identifiant de chapitre invalide.' }) }),
        response: { 200: z.array(myAnswerSchema) },
      },
    },
    async (request) => listMyChapterAnswers(deps.db, authOf(request), request.params.id),
  );
};
