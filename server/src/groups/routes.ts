import { createGroupSchema, groupDetailSchema, groupSummarySchema, updateGroupResultSchema, updateGroupSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { createGroup, deleteGroup, getGroupDetail, listVisibleGroups, renameGroup, setGroupMembers } from './service.js';

const params = z.object({ id: z.uuid({ error: 'Identifiant de groupe invalide.' }) });
const messageSchema = z.object({ message: z.string() });
const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? 's' : ''}`;

/**
 * Groups: listing one's own groups is for everyone; managing groups and reading a member list
 * (names, e-mails, birth dates of pupils) is for admins (docs/decisions/groups.md).
 */
export const groupRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/group',
    { preHandler: requireAuth, schema: { tags: ['groups'], response: { 200: z.array(groupSummarySchema) } } },
    async (request) => listVisibleGroups(deps.db, authOf(request)),
  );

  app.get(
    '/group/:id',
    { preHandler: requireRole('admin'), schema: { tags: ['groups'], params, response: { 200: groupDetailSchema } } },
    async (request) => getGroupDetail(deps.db, request.params.id),
  );

  app.post(
    '/group',
    {
      preHandler: requireRole('admin'),
      schema: { tags: ['groups'], body: createGroupSchema, response: { 200: groupSummarySchema } },
    },
    async (request) => createGroup(deps.db, authOf(request), request.body.name),
  );

  app.patch(
    '/group/:id',
    {
      preHandler: requireRole('admin'),
      // A full member list of a large cup (tens of thousands of addresses) exceeds the default 1 MiB.
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags: ['groups'],
        params,
        body: updateGroupSchema,
        response: { 200: updateGroupResultSchema, 400: updateGroupResultSchema },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { id } = request.params;
      if (request.body.name !== undefined) {
        await renameGroup(deps.db, auth, id, request.body.name);
        return { message: 'Modifications enregistrées' };
      }
      const result = await setGroupMembers(deps.db, auth, id, request.body.members ?? []);
      return {
        message: `Membres enregistrés : ${plural(result.added, 'ajout')}, ${plural(result.removed, 'retrait')}.`,
        added: result.added,
        removed: result.removed,
      };
    },
  );

  app.delete(
    '/group/:id',
    { preHandler: requireRole('admin'), schema: { tags: ['groups'], params, response: { 200: messageSchema } } },
    async (request) => {
      await deleteGroup(deps.db, authOf(request), request.params.id);
      return { message: 'Groupe supprimé' };
    },
  );
};
