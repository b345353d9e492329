import { timingSafeEqual } from 'node:crypto';
import { anonymiseResultSchema, liveChapterSchema } from '@olympe/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { openFileStore } from '../files/store-select.js';
import { getLiveChapter } from './live.js';
import { anonymiseUser, exportUser } from './privacy.js';

const userParams = z.object({ uid: z.uuid({ error: 'Identifiant d’utilisateur invalide.' }) });
const chapterParams = z.object({ id: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const requireAdmin = requireRole('admin');

/** Operations (docs/operations.md): metrics, live chapter figures, personal data export and anonymisation. */
export const opsRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const store = openFileStore(deps);

  /** A scraper presents METRICS_TOKEN; a person must be an admin. */
  const requireMetricsAccess = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = deps.config.metricsToken;
    const header = request.headers.authorization;
    if (token && header?.startsWith('Bearer ')) {
      const given = Buffer.from(header.slice(7).trim());
      const expected = Buffer.from(token);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return;
    }
    await requireAdmin(request, reply);
  };

  app.get('/metrics', { preHandler: requireMetricsAccess, schema: { tags: ['ops'], hide: true } }, async (_request, reply) => {
    const registry = app.metrics.registry;
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });

  app.get(
    '/chapter/:id/live',
    { preHandler: requireAdmin, schema: { tags: ['ops'], params: chapterParams, response: { 200: liveChapterSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return getLiveChapter(deps.db, request.params.id, app.metrics.recentServerErrors(300));
    },
  );

  app.get(
    '/user/:uid/export',
    {
      preHandler: requireAdmin,
      schema: { tags: ['ops'], params: userParams, response: { 200: z.record(z.string(), z.unknown()) } },
    },
    async (request, reply) => {
      const data = await exportUser(deps.db, request.params.uid);
      reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="olympe-utilisateur-${request.params.uid}.json"`);
      return data;
    },
  );

  app.post(
    '/user/:uid/anonymise',
    { preHandler: requireAdmin, schema: { tags: ['ops'], params: userParams, response: { 200: anonymiseResultSchema } } },
    async (request) => anonymiseUser({ db: deps.db, store }, authOf(request), request.params.uid),
  );
};
