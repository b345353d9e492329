import { attendanceBodySchema, savedMessageSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { attendanceSheetPdf, centerDayWorkbook, convocationPdf, putAttendance, registeredXlsx } from './exam-day.js';

const chapterParams = z.object({ chapterId: z.uuid({ error: 'Identifiant de chapitre invalide.' }) });
const institutionQuery = z.object({ institution: z.uuid({ error: 'Identifiant d’établissement invalide.' }).optional() });
const tags = ['centers'];

function sendFile(reply: FastifyReply, file: { bytes: Uint8Array; name: string }, type: string) {
  const ascii = file.name
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '_');
  return reply
    .type(type)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .send(Buffer.from(file.bytes));
}

/** The exam day (decision 59): convocations, attendance sheet and list, the registered pupils' workbook. */
export const examDayRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/center/convocation/:chapterId.pdf',
    { preHandler: requireAuth, schema: { tags, params: chapterParams, querystring: institutionQuery } },
    async (request, reply) =>
      sendFile(
        reply,
        await convocationPdf(deps.db, authOf(request), request.params.chapterId, request.query.institution),
        'application/pdf',
      ),
  );

  app.get(
    '/center/attendance-sheet/:chapterId.pdf',
    { preHandler: requireRole('teacher'), schema: { tags, params: chapterParams, querystring: institutionQuery } },
    async (request, reply) =>
      sendFile(
        reply,
        await attendanceSheetPdf(deps.db, authOf(request), request.params.chapterId, request.query.institution),
        'application/pdf',
      ),
  );

  app.get(
    '/center/registered/:chapterId.xlsx',
    { preHandler: requireRole('teacher'), schema: { tags, params: chapterParams, querystring: institutionQuery } },
    async (request, reply) =>
      sendFile(
        reply,
        await registeredXlsx(deps.db, authOf(request), request.params.chapterId, request.query.institution),
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ),
  );

  app.get(
    '/center/overview/:chapterId/centres.xlsx',
    { preHandler: requireRole('admin'), schema: { tags, params: chapterParams } },
    async (request, reply) =>
      sendFile(
        reply,
        await centerDayWorkbook(deps.db, request.params.chapterId),
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ),
  );

  app.put(
    '/center/attendance/:chapterId',
    {
      preHandler: requireRole('teacher'),
      schema: {
        tags,
        params: chapterParams,
        querystring: institutionQuery,
        body: attendanceBodySchema,
        response: { 200: savedMessageSchema },
      },
    },
    async (request) => {
      const n = await putAttendance(deps.db, authOf(request), request.params.chapterId, request.body, request.query.institution);
      return { message: `Présences enregistrées (${n} élève${n > 1 ? 's' : ''})` };
    },
  );
};
