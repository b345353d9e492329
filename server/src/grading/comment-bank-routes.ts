import { bankCommentInputSchema, bankCommentPatchSchema, bankCommentSchema, savedMessageSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { addBankComment, archiveBankComment, listBankComments, updateBankComment } from './comment-bank.js';

const exerciseParams = z.object({ id: z.uuid({ error: 'Identifiant d’exercice invalide.' }) });
const commentParams = exerciseParams.extend({ commentId: z.uuid({ error: 'Identifiant de remarque invalide.' }) });
const tags = ['grading'];

/**
 * The exercise's comment bank (docs/product.md#returned-copies, decision 160): its correctors (members allowed to grade
 * it) and admins read it and add to it; admins reword, reorder and retire.
 */
export const commentBankRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const member = requireRole('member');
  const admin = requireRole('admin');

  app.get(
    '/exos/:id/comments',
    { preHandler: member, schema: { tags, params: exerciseParams, response: { 200: z.array(bankCommentSchema) } } },
    async (request) => listBankComments(deps.db, authOf(request), request.params.id),
  );

  app.post(
    '/exos/:id/comments',
    { preHandler: member, schema: { tags, params: exerciseParams, body: bankCommentInputSchema, response: { 200: bankCommentSchema } } },
    async (request) => addBankComment(deps.db, authOf(request), request.params.id, request.body.text),
  );

  app.patch(
    '/exos/:id/comments/:commentId',
    { preHandler: admin, schema: { tags, params: commentParams, body: bankCommentPatchSchema, response: { 200: bankCommentSchema } } },
    async (request) => updateBankComment(deps.db, authOf(request), request.params.id, request.params.commentId, request.body),
  );

  app.delete(
    '/exos/:id/comments/:commentId',
    { preHandler: admin, schema: { tags, params: commentParams, response: { 200: savedMessageSchema } } },
    async (request) => archiveBankComment(deps.db, authOf(request), request.params.id, request.params.commentId),
  );
};
