import {
  boardSchema,
  categorySchema,
  cutoffSchema,
  decisionInputSchema,
  decisionSchema,
  freezeInputSchema,
  selectionInputSchema,
  selectionSchema,
  selectionSummarySchema,
  versionChangesSchema,
  versionSummarySchema,
} from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { getBoard } from './board.js';
import { versionChanges } from './changes.js';
import { setCutoff } from './cutoff.js';
import { setDecision } from './decisions.js';
import { freezeVersion } from './freeze.js';
import { createSelection, getSelection, listSelections, revealNames, updateSelection } from './manage.js';

const idParams = z.object({ id: z.uuid({ error: 'Identifiant de sélection invalide.' }) });
const categoryParams = idParams.extend({ categoryId: z.uuid({ error: 'Identifiant de catégorie invalide.' }) });
const versionNumber = (what: string) =>
  z.coerce.number({ error: `Numéro de version invalide (${what}).` }).int({ error: `Numéro de version invalide (${what}).` });
const versionParams = idParams.extend({ n: versionNumber('n').min(1, { error: 'Numéro de version invalide (n).' }).max(1_000_000) });
const changesQuery = z.object({
  from: versionNumber('from').min(0, { error: 'Numéro de version invalide (from).' }).max(1_000_000).optional(),
});
const tags = ['selections'];

/** The jury's routes: selections, their board, decisions and versions (decision 155, docs/product.md#selections). */
export const selectionRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const admin = requireRole('admin');
  const secret = deps.config.jwtSecret;

  app.get(
    '/selection',
    { preHandler: requireAuth, schema: { tags, response: { 200: z.array(selectionSummarySchema) } } },
    async (request) => listSelections(deps.db, authOf(request)),
  );

  app.post(
    '/selection',
    { preHandler: admin, schema: { tags, body: selectionInputSchema, response: { 200: selectionSchema } } },
    async (request) => createSelection(deps.db, authOf(request), request.body),
  );

  app.get(
    '/selection/:id',
    { preHandler: requireAuth, schema: { tags, params: idParams, response: { 200: selectionSchema } } },
    async (request) => getSelection(deps.db, authOf(request), request.params.id),
  );

  app.patch(
    '/selection/:id',
    { preHandler: admin, schema: { tags, params: idParams, body: selectionInputSchema, response: { 200: selectionSchema } } },
    async (request) => updateSelection(deps.db, authOf(request), request.params.id, request.body),
  );

  app.put(
    '/selection/:id/categories/:categoryId/cutoff',
    { preHandler: requireAuth, schema: { tags, params: categoryParams, body: cutoffSchema, response: { 200: categorySchema } } },
    async (request) => setCutoff(deps.db, authOf(request), request.params.id, request.params.categoryId, request.body),
  );

  app.put(
    '/selection/:id/decision',
    { preHandler: requireAuth, schema: { tags, params: idParams, body: decisionInputSchema, response: { 200: z.array(decisionSchema) } } },
    async (request) => setDecision(deps.db, secret, authOf(request), request.params.id, request.body),
  );

  app.get(
    '/selection/:id/board',
    { preHandler: requireAuth, schema: { tags, params: idParams, response: { 200: boardSchema } } },
    async (request) => getBoard(deps.db, secret, authOf(request), request.params.id),
  );

  app.post(
    '/selection/:id/freeze',
    { preHandler: requireAuth, schema: { tags, params: idParams, body: freezeInputSchema, response: { 200: versionSummarySchema } } },
    async (request) => freezeVersion(deps.db, secret, authOf(request), request.params.id, request.body.reason),
  );

  app.get(
    '/selection/:id/versions/:n/changes',
    {
      preHandler: requireAuth,
      schema: { tags, params: versionParams, querystring: changesQuery, response: { 200: versionChangesSchema } },
    },
    async (request) => versionChanges(deps.db, secret, authOf(request), request.params.id, request.params.n, request.query.from),
  );

  app.post(
    '/selection/:id/reveal-names',
    { preHandler: admin, schema: { tags, params: idParams, response: { 200: selectionSchema } } },
    async (request) => revealNames(deps.db, authOf(request), request.params.id),
  );
};
