import multipart from '@fastify/multipart';
import { IMPORT_MAX_BYTES, importReportSchema, logtoResultSchema, logtoSchema, userSchema } from '@olympe/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, requireAuth, requireRole } from '../auth/context.js';
import type { Deps } from '../deps.js';
import { rolesOf } from '../groups/service.js';
import { impersonateUser } from './impersonation.js';
import { assertMaySeeUser } from './policies.js';
import { AppError, badRequest } from '../errors.js';
import { readImportFile } from './import-file.js';
import { importPupils, limitImports, resolveImportSchool } from './import.js';
import { getUserById } from './service.js';

const schoolField = z.uuid({ error: 'Établissement invalide.' }).optional();

export const userRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, fieldSize: 200, parts: 6 } });

  /**
   * Bulk accounts (decision 68): a CSV or XLSX of pupils → accounts of the school, invitations queued.
   * Fields: `file`, `institution` (admins: required; staff: their own school or nothing), `preview`
   * ("true": the report of what would happen, nothing written).
   */
  app.post(
    '/users/import',
    {
      preHandler: requireRole('teacher'),
      schema: { tags: ['users'], consumes: ['multipart/form-data'], response: { 200: importReportSchema } },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(415, 'Un envoi multipart/form-data avec un fichier CSV ou XLSX est attendu.');
      const fields: Record<string, string> = {};
      let bytes: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || bytes) await part.toBuffer().catch(() => undefined);
            else bytes = await part.toBuffer();
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw new AppError(413, `Fichier trop lourd (${IMPORT_MAX_BYTES / 1024 / 1024} Mo au plus).`);
        if (code === 'FST_FILES_LIMIT') throw new AppError(413, 'Un seul fichier par envoi.');
        if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new AppError(413, 'Trop de champs dans l’envoi.');
        throw badRequest('Envoi interrompu ou invalide.');
      }
      const requested = schoolField.safeParse(fields.institution || undefined);
      if (!requested.success) throw badRequest('Établissement invalide.');
      const auth = authOf(request);
      // The school is checked before the file is read: a refused caller costs no parsing.
      const school = await resolveImportSchool(deps.db, auth, requested.data);
      await limitImports(deps.limiter, school.id);
      if (!bytes || bytes.length === 0) throw badRequest('Aucun fichier reçu : choisissez un fichier CSV ou XLSX.');
      const rows = await readImportFile(bytes);
      return importPupils(deps, auth, { school, rows, preview: fields.preview === 'true' });
    },
  );

  app.post(
    '/user/logto',
    {
      preHandler: requireRole('admin'),
      schema: { tags: ['users'], body: logtoSchema, response: { 200: logtoResultSchema } },
    },
    async (request) => impersonateUser(deps, authOf(request), request.body.uid, request.ip),
  );

  app.get(
    '/user/:uid',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['users'],
        params: z.object({ uid: z.uuid({ error: 'Identifiant d’utilisateur invalide.' }) }),
        response: { 200: userSchema },
      },
    },
    async (request) => {
      const { uid } = request.params;
      assertMaySeeUser(authOf(request), uid);
      return getUserById(deps.db, uid, await rolesOf(deps.db, uid));
    },
  );
};
