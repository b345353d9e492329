import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, badRequest, errorBody } from '../errors.js';

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Le corps de la requête n’est pas un JSON valide.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Le corps de la requête est vide alors qu’un JSON est attendu.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'La requête est trop volumineuse.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Type de contenu non pris en charge.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Longueur de contenu invalide.'],
  FST_ERR_BAD_URL: [400, 'Adresse invalide.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'Adresse trop longue.'],
};

/** PostgreSQL refuses NUL in text (22021) and in JSON (22P05): bad input, not a server fault. */
const INVALID_TEXT_CODES = new Set(['22021', '22P05']);
export const NUL_MESSAGE = 'Le texte envoyé contient un caractère nul (U+0000), qui n’est pas accepté.';

/** True when a parsed body, query or params value holds a NUL character anywhere. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

/**
 * Fastify's router answers some malformed URLs itself (a bad %-escape, a parameter over
 * maxParamLength) in English unless given this handler: pass it as the `frameworkErrors` option.
 */
export function sendFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const [status, message] = FASTIFY_MESSAGES[error.code] ?? [400, 'Requête invalide.'];
  return sendError(reply, new AppError(status, message));
}

export const UNAVAILABLE_MESSAGE = 'Le service est momentanément indisponible. Réessayez dans un instant.';

// Connection-level failures of PostgreSQL: the API answers 503 and recovers on its own
// (57P01-03: server shutting down, crashed or starting; 08xxx: connection exceptions).
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
// node-postgres throws these without a code when a connection drops or cannot be had.
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;

/**
 * Whether an error means "the database cannot be reached right now". drizzle wraps driver errors
 * (DrizzleQueryError, the driver's error as `cause`), so the cause chain is followed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * During a graceful stop (app.close()), a request that still arrives on a kept-alive or pipelined
 * connection gets 503 with the French message and `Connection: close`, before any authentication or
 * database work. Replaces Fastify's own English reply (`return503OnClosing: false` in app.ts).
 */
export function refuseWhileClosing(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) return sendError(reply.header('connection', 'close'), new AppError(503, UNAVAILABLE_MESSAGE));
  });
}

/** Every error body leaves through here: `{ message, code }` and the error's own fields (decision 146). */
export function sendError(reply: FastifyReply, error: AppError) {
  return reply.status(error.statusCode).send(errorBody(error));
}

/**
 * The single error handler (docs/product.md#style (§4)): always `{ message, code }`, the message in French, never a stack trace. Also
 * refuses NUL characters in any body, query or parameter before validation, so no route reaches
 * the database with one (PostgreSQL text cannot hold it) and such a request changes nothing.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) throw badRequest(NUL_MESSAGE);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(reply, appErrorOf(error, request)));
}

/** Any error thrown on the way to a reply, as the AppError it is answered with (a French message and a code). */
function appErrorOf(error: FastifyError, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0];
    const where = issue?.instancePath ? issue.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
    const what = issue?.message ?? 'valeur invalide';
    // `fields`: each field's own French message, for forms that show it next to the field (decision 141).
    const fields: Record<string, string> = {};
    for (const i of error.validation) {
      const key = i.instancePath.replace(/^\//, '').replaceAll('/', '.');
      if (key && !(key in fields) && i.message) fields[key] = i.message;
    }
    return new AppError(400, `Données invalides${where ? ` (${where})` : ''} : ${what}`, 'bad_request', { fields });
  }
  const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  const dbCode = (error as { cause?: { code?: string } }).cause?.code ?? error.code;
  if (dbCode && INVALID_TEXT_CODES.has(dbCode)) return badRequest(NUL_MESSAGE);
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable');
    return new AppError(503, UNAVAILABLE_MESSAGE);
  }
  // Fastify's and its plugins' own refusals (multipart limits, a rate limit…): their status, a French message.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return new AppError(error.statusCode, 'Requête invalide.');
  request.log.error({ err: error }, 'unhandled error');
  return new AppError(500, 'Une erreur interne est survenue. Réessayez plus tard.');
}
