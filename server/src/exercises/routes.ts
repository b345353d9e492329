import {
  chapterPageSchema,
  createdWithIdSchema,
  exerciseCreateSchema,
  exercisePatchSchema,
  exerciseRawSchema,
  exerciseViewSchema,
  savedMessageSchema,
  schemeChangeInputSchema,
  schemeChangePreviewSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import { findChapter } from '../chapters/service.js';
import type { Deps } from '../deps.js';
import { buildChapterLatex, latexFileName } from './latex.js';
import {
  createExercise,
  deleteExercise,
  getChapterPage,
  getExerciseFor,
  listRawExercises,
  loadChapterExercises,
  previewScheme,
  restoreExercise,
  updateExercise,
} from './service.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const chapterIdParams = z.object({ id: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const exerciseParams = z.object({ id: z.uuid({ error: 'Identifiant d’exercice invalide.' }) });
const tags = ['exercises'];

export const exerciseRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/exos/raw/:chapterId',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: chapterParams, response: { 200: z.array(exerciseRawSchema) } },
    },
    async (request) => listRawExercises(deps.db, request.params.chapterId),
  );

  app.get(
    '/exos/chapter/:id',
    { preHandler: requireAuth, schema: { tags, params: chapterIdParams, response: { 200: chapterPageSchema } } },
    async (request) => getChapterPage(deps.db, authOf(request), request.params.id),
  );

  app.get(
    '/exos/latex/:chapterId',
    { preHandler: requireRole('admin'), schema: { tags, params: chapterParams, response: { 200: z.string() } } },
    async (request, reply) => {
      const chapter = await findChapter(deps.db, request.params.chapterId);
      const list = await loadChapterExercises(deps.db, chapter.id);
      const tex = buildChapterLatex(
        chapter,
        list.map((e) => ({ title: e.title, statementVersions: e.versions })),
      );
      const name = latexFileName(chapter.title);
      const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      return reply
        .type('application/x-tex; charset=utf-8')
        .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .send(tex);
    },
  );

  app.get(
    '/exos/:id',
    { preHandler: requireAuth, schema: { tags, params: exerciseParams, response: { 200: exerciseViewSchema } } },
    async (request) => getExerciseFor(deps.db, authOf(request), request.params.id),
  );

  app.post(
    '/exos',
    {
      preHandler: requireRole('admin'),
      schema: { tags, body: exerciseCreateSchema, response: { 201: exerciseRawSchema.extend(createdWithIdSchema.shape) } },
    },
    async (request, reply) => {
      const exercise = await createExercise(deps.db, request.body);
      return reply.status(201).send({ ...exercise, message: 'Exercice créé' });
    },
  );

  app.patch(
    '/exos/:id',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: exerciseParams, body: exercisePatchSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      await updateExercise(deps.db, authOf(request), request.params.id, request.body);
      return { message: 'Modifications enregistrées' };
    },
  );

  // Decision 161: what new scheme points would do to the grades given, before PATCH applies them.
  app.post(
    '/exos/:id/scheme/preview',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: exerciseParams, body: schemeChangeInputSchema, response: { 200: schemeChangePreviewSchema } },
    },
    async (request) => previewScheme(deps.db, request.params.id, request.body.schemeItems),
  );

  app.delete(
    '/exos/:id',
    { preHandler: requireRole('admin'), schema: { tags, params: exerciseParams, response: { 200: savedMessageSchema } } },
    async (request) => {
      await deleteExercise(deps.db, authOf(request), request.params.id);
      return { message: 'Exercice placé dans la corbeille' };
    },
  );

  app.post(
    '/exos/:id/restore',
    { preHandler: requireRole('admin'), schema: { tags, params: exerciseParams, response: { 200: savedMessageSchema } } },
    async (request) => {
      await restoreExercise(deps.db, authOf(request), request.params.id);
      return { message: 'Exercice restauré' };
    },
  );
};
