import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Le corps de la requête n’est pas un JSON valide.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Le corps de la requête est vide alors qu’un JSON est attendu.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'La requête est trop volumineuse.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Type de contenu non pris en charge.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Longueur de contenu invalide.'],
  FST_ERR_BAD_URL: [400, 'Adresse invalide.'],
};

// Connection-level failures of PostgreSQL: the API answers 503 and recovers on its own.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', '57P01', '57P03', '08006', '08001', '08003']);

/** The single error handler (STYLE §4): always `{message}` in French, never a stack trace. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return reply.status(error.statusCode).send({ message: error.message });
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = issue?.instancePath ? issue.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
      const what = issue?.message ?? 'valeur invalide';
      return reply.status(400).send({ message: `Données invalides${where ? ` (${where})` : ''} : ${what}` });
    }
    const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
    if (known) return reply.status(known[0]).send({ message: known[1] });
    if (error.code && UNAVAILABLE_CODES.has(error.code)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .send({ message: 'Le service est momentanément indisponible. Réessayez dans un instant.' });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: 'Requête invalide.' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Une erreur interne est survenue. Réessayez plus tard.' });
  });
}
