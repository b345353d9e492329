import type { ErrorCode } from '@olympe/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The code an error gets from its status when the thrower names none. */
export function errorCodeFor(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
    case 414:
      return 'too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}

/** Typed application errors (docs/product.md#style (§4)): services throw them, the one error handler maps them. */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    code?: ErrorCode,
    /** Fields the body carries beside `message` and `code` (the unknown e-mails of a group, decision 146). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.code = code ?? errorCodeFor(statusCode);
  }
}

/** The body of every error response: `{ message, code }`, then the error's own fields (decision 146). */
export const errorBody = (error: AppError) => ({ message: error.message, code: error.code, ...error.details });

export const badRequest = (message: string, code?: ErrorCode, details?: Record<string, unknown>) =>
  new AppError(400, message, code, details);
export const unauthorized = (message = 'Vous devez vous connecter.', code?: ErrorCode) => new AppError(401, message, code);
export const forbidden = (message = 'Vous n’avez pas accès à cette ressource.', code?: ErrorCode) => new AppError(403, message, code);
export const notFound = (message = 'Ressource introuvable.', code?: ErrorCode) => new AppError(404, message, code);
export const conflict = (message: string, code?: ErrorCode, details?: Record<string, unknown>) => new AppError(409, message, code, details);
export const tooMany = (message = 'Trop de tentatives. Réessayez dans une minute.') => new AppError(429, message);

const thrownCodes = new WeakMap<FastifyRequest, ErrorCode>();

/**
 * Adds `code` to every JSON error body, whoever wrote it (the error handler, the not-found handler,
 * the router's own errors, a route's 4xx reply): an AppError's own code, else the status's. Done as
 * the body leaves, so no error path can forget it and declared error schemas need not list it.
 */
export function addErrorCodes(app: FastifyInstance) {
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof AppError) thrownCodes.set(request, error.code);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.startsWith('{')) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body) || 'code' in body || !('message' in body)) return payload;
    const code = thrownCodes.get(request) ?? errorCodeFor(reply.statusCode);
    return JSON.stringify({ ...body, code });
  });
}
