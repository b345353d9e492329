import {
  extensionSchema,
  extraTimeSchema,
  focusEventSchema,
  receiptQuerySchema,
  receiptSchema,
  savedMessageSchema,
  sessionStateSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { addExtension, setExtraTime } from './allowances.js';
import { finishChapter } from './finish.js';
import { getReceipt } from './receipt.js';
import { recordFocusEvent } from './events.js';
import { getChapterSessionState } from './service.js';
import { startChapter } from './start.js';

const chapterParams = z.object({ id: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });

export const sessionRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.put(
    '/user/:uid/extra-time',
    {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['sessions'],
        params: z.object({ uid: z.uuid({ error: 'Identifiant d’utilisateur invalide.' }) }),
        body: extraTimeSchema,
        response: { 200: savedMessageSchema },
      },
    },
    async (request) => ({ message: await setExtraTime(deps.db, authOf(request), request.params.uid, request.body.percent) }),
  );

  app.post(
    '/chapter/:id/extension',
    {
      preHandler: requireRole('admin'),
      schema: {
        tags: ['sessions'],
        params: chapterParams,
        body: extensionSchema,
        response: { 200: savedMessageSchema },
      },
    },
    async (request) => ({ message: await addExtension(deps.db, authOf(request), request.params.id, request.body) }),
  );

  app.get(
    '/chapter/start/:id',
    { preHandler: requireAuth, schema: { tags: ['sessions'], params: chapterParams, response: { 200: sessionStateSchema } } },
    async (request) => getChapterSessionState(deps.db, authOf(request), request.params.id),
  );

  app.post(
    '/chapter/start/:id',
    { preHandler: requireAuth, schema: { tags: ['sessions'], params: chapterParams, response: { 200: sessionStateSchema } } },
    async (request) => startChapter(deps.db, authOf(request), request.params.id),
  );

  // Any logged-in user: the service refuses staff (403) and sessions not running (409).
  app.post(
    '/chapter/finish/:id',
    { preHandler: requireAuth, schema: { tags: ['sessions'], params: chapterParams, response: { 200: sessionStateSchema } } },
    async (request) => finishChapter(deps.db, authOf(request), request.params.id),
  );

  // A pupil reads their own; `?user=` is for admins and members checking a code (the service decides).
  app.get(
    '/chapter/receipt/:id',
    {
      preHandler: requireAuth,
      schema: { tags: ['sessions'], params: chapterParams, querystring: receiptQuerySchema, response: { 200: receiptSchema } },
    },
    async (request) => getReceipt(deps.db, authOf(request), deps.config.jwtSecret, request.params.id, request.query.user),
  );

  app.post(
    '/chapter/event/:chapterId',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['sessions'],
        params: z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) }),
        body: focusEventSchema,
        response: { 200: z.object({ recorded: z.boolean() }) },
      },
    },
    async (request) => ({
      recorded: await recordFocusEvent(deps.db, authOf(request), {
        chapterId: request.params.chapterId,
        eventType: request.body.eventType,
        ip: request.ip,
      }),
    }),
  );
};
