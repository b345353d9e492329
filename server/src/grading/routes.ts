import {
  arbitrationRowSchema,
  assignmentsSaveSchema,
  assignmentsSchema,
  answerHistorySchema,
  autoCorrectionCountSchema,
  autoCorrectionSchema,
  gradeConflictSchema,
  gradeSavedSchema,
  gradeSaveSchema,
  gradingTableQuerySchema,
  gradingTableSchema,
  overviewPageSchema,
  overviewQuerySchema,
  overviewRowSchema,
  savedMessageSchema,
  selectedAnswerSchema,
  unlabeledStatsSchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { conflict } from '../errors.js';
import { getAssignments, saveAssignments } from './assignments.js';
import { autoCorrectChapter, countAutoCorrection } from './autocorrect.js';
import { getGradingCopy, selectNextAnswer } from './copy.js';
import { listArbitration } from './double.js';
import { listOverview, listOverviewPage } from './overview.js';
import { dismissPagesAdded } from './pages-added.js';
import { saveGrade } from './save.js';
import { countUnlabeled, getGradingTable } from './table.js';
import { getGradingTablePage } from './table-page.js';

const chapterParams = z.object({ id: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const chapterIdParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const exerciseParams = z.object({ exerciseId: z.uuid({ error: 'Identifiant d’exercice invalide.' }) });
const copyParams = z.object({
  uid: z.uuid({ error: 'Identifiant d’élève invalide.' }),
  eid: z.uuid({ error: 'Identifiant d’exercice invalide.' }),
});
const answerParams = z.object({ answerId: z.uuid({ error: 'Identifiant de copie invalide.' }) });
const tags = ['grading'];
/**
 * POST /answer/grade carries the corrector's marks (decision 159): at most 20,000 ink points a copy, a point
 * `[0.1234,0.5678],` being 16 bytes once the desk rounds to 1/10,000 of a page (0.03 mm on A4), so 320 kB; 1 MiB,
 * the limit of every route, leaves the comment and the rest room and keeps the save's validation to milliseconds.
 */
const GRADE_BODY_LIMIT = 1024 * 1024;

/**
 * Grading (docs/product.md#spec-2 "Correction", "History", "Overview"; docs/product.md#design-3 "Who may call what"): members
 * and admins grade, read any history, select copies and review; auto-correction is admin only;
 * a pupil reads only their own history.
 */
export const gradingRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const member = requireRole('member');

  app.get(
    '/answer/table/:id',
    {
      preHandler: member,
      // The schema documents the reply (OpenAPI); it is not used to serialise it, see below.
      schema: { tags, params: chapterParams, querystring: gradingTableQuerySchema, response: { 200: gradingTableSchema } },
    },
    // 10,000 pupils × 12 cells (bench/grading): the table is built field by field from the query
    // (grading/table.ts), so it is not re-validated with zod (~15 ms); it leaves as bytes, which
    // Fastify and the HTTP layer pass along without encoding a 2.3 MB string again (~4 ms).
    // With `limit`, one page of it (decision 83).
    async (request, reply) => {
      const { limit, after, q } = request.query;
      const table =
        limit === undefined
          ? await getGradingTable(deps.db, authOf(request), request.params.id)
          : await getGradingTablePage(deps.db, authOf(request), request.params.id, { limit, after, q });
      const body = Buffer.from(JSON.stringify(table));
      return reply.type('application/json; charset=utf-8').send(body as unknown as typeof table);
    },
  );

  app.get(
    '/answer/select/:exerciseId',
    { preHandler: member, schema: { tags, params: exerciseParams, response: { 200: selectedAnswerSchema } } },
    async (request) => selectNextAnswer(deps.db, authOf(request), request.params.exerciseId),
  );

  app.post(
    '/answer/auto/:chapterId',
    { preHandler: requireRole('admin'), schema: { tags, params: chapterIdParams, response: { 200: autoCorrectionSchema } } },
    async (request) => autoCorrectChapter(deps.db, authOf(request), request.params.chapterId),
  );

  // Decision 69: the count the confirmation dialog shows before a run (« 1 234 copies seront notées »).
  app.get(
    '/answer/auto/:chapterId/count',
    { preHandler: requireRole('admin'), schema: { tags, params: chapterIdParams, response: { 200: autoCorrectionCountSchema } } },
    async (request) => countAutoCorrection(deps.db, request.params.chapterId),
  );

  app.get(
    '/answer/history/:uid/:eid',
    { preHandler: requireAuth, schema: { tags, params: copyParams, response: { 200: answerHistorySchema } } },
    async (request) => getGradingCopy(deps.db, authOf(request), request.params.uid, request.params.eid),
  );

  // docs/product.md#spec-7 writes the path with a trailing slash; both forms are served.
  for (const url of ['/answer/grade', '/answer/grade/']) {
    app.post(
      url,
      {
        preHandler: member,
        bodyLimit: GRADE_BODY_LIMIT,
        schema: { tags, body: gradeSaveSchema, response: { 200: gradeSavedSchema, 409: gradeConflictSchema } },
      },
      async (request) => {
        const outcome = await saveGrade(deps.db, authOf(request), request.body);
        // Thrown once the save's transaction is over, so what it released (the corrector's hold) stays released; the
        // 409 carries the copy's `current` state beside `{ message, code }` (decision 146).
        if (!outcome.ok) throw conflict(outcome.conflict.message, 'conflict', { current: outcome.conflict.current });
        return outcome.saved;
      },
    );
  }

  // Decision 139: the « pages ajoutées après la note » notice of a copy, removed by a corrector who keeps its grade.
  app.delete(
    '/answer/pages-added/:answerId',
    { preHandler: member, schema: { tags, params: answerParams, response: { 200: savedMessageSchema } } },
    async (request) => dismissPagesAdded(deps.db, authOf(request), request.params.answerId),
  );

  app.get(
    '/answer/overview/:chapterId',
    {
      preHandler: member,
      schema: {
        tags,
        params: chapterIdParams,
        querystring: overviewQuerySchema,
        response: { 200: z.union([z.array(overviewRowSchema), overviewPageSchema]) },
      },
    },
    // Decision 94: with `limit`, one page sorted and filtered by the server; without, every row (the CSV).
    async (request) => {
      const { limit } = request.query;
      return limit === undefined
        ? listOverview(deps.db, authOf(request), request.params.chapterId)
        : listOverviewPage(deps.db, authOf(request), request.params.chapterId, { ...request.query, limit });
    },
  );

  app.get(
    '/answer/arbitration/:chapterId',
    { preHandler: requireRole('admin'), schema: { tags, params: chapterIdParams, response: { 200: z.array(arbitrationRowSchema) } } },
    async (request) => listArbitration(deps.db, request.params.chapterId),
  );

  app.get(
    '/chapter/:id/assignments',
    { preHandler: member, schema: { tags, params: chapterParams, response: { 200: assignmentsSchema } } },
    async (request) => getAssignments(deps.db, request.params.id),
  );

  app.put(
    '/chapter/:id/assignments',
    {
      preHandler: requireRole('admin'),
      schema: { tags, params: chapterParams, body: assignmentsSaveSchema, response: { 200: savedMessageSchema } },
    },
    async (request) => {
      await saveAssignments(deps.db, authOf(request), request.params.id, request.body);
      return { message: 'Répartition des corrections enregistrée' };
    },
  );

  app.get(
    '/answer/unlabeled/stats/:id',
    { preHandler: member, schema: { tags, params: chapterParams, response: { 200: unlabeledStatsSchema } } },
    async (request) => countUnlabeled(deps.db, request.params.id),
  );
};
