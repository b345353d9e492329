import {
  labelBodySchema,
  labelResultSchema,
  pupilSearchQuerySchema,
  pupilSearchResultSchema,
  relabelBodySchema,
  relabelResultSchema,
  sortingSelectionSchema,
  unlabeledAnswerSchema,
  unlabeledCreateSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { openFileStore } from '../files/store-select.js';
import { labelCopy } from './label.js';
import { searchPupils } from './pupils.js';
import { relabelAnswer } from './relabel.js';
import { loadSortingChapter, selectCopy } from './select.js';
import { listUnlabeled, registerUnlabeled } from './unlabeled.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const copyParams = z.object({ answerId: z.uuid({ error: 'Identifiant de copie invalide.' }) });
const tags = ['sorting'];

/**
 * Scanned copies: filed by school staff (or members), then sorted by members and admins (docs/product.md#spec-2
 * "Triage"); an admin sends a PDF answer back to sorting.
 */
export const sortingRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const store = openFileStore(deps);
  const sorter = requireRole('member');

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

  app.get(
    '/answer/unlabeled/select/:chapterId',
    { preHandler: sorter, schema: { tags, params: chapterParams, response: { 200: sortingSelectionSchema } } },
    async (request) => selectCopy({ db: deps.db, store }, authOf(request), request.params.chapterId),
  );

  app.get(
    '/answer/unlabeled/pupils/:chapterId',
    {
      preHandler: sorter,
      schema: { tags, params: chapterParams, querystring: pupilSearchQuerySchema, response: { 200: pupilSearchResultSchema } },
    },
    async (request) => {
      await loadSortingChapter(deps.db, request.params.chapterId);
      return searchPupils(deps.db, request.params.chapterId, null, request.query.q);
    },
  );

  app.post(
    '/answer/label/:answerId',
    {
      preHandler: sorter,
      // A 200-page room scan labels in one request: the array stays far below the 1 MB body limit.
      schema: { tags, params: copyParams, body: labelBodySchema, response: { 200: labelResultSchema } },
    },
    async (request) => labelCopy({ db: deps.db, store }, authOf(request), request.params.answerId, request.body),
  );

  // docs/product.md#spec-7 writes the trailing slash; both spellings are accepted, as for /answer/grade.
  for (const url of ['/answer/relabel', '/answer/relabel/']) {
    app.post(
      url,
      { preHandler: requireRole('admin'), schema: { tags, body: relabelBodySchema, response: { 200: relabelResultSchema } } },
      async (request) => relabelAnswer(deps.db, authOf(request), request.body.answerId),
    );
  }
};
