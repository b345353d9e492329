import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { createMetrics, type Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const REQUEST_ID = /^[\w.:-]{1,100}$/;
// Query parameters that carry secrets (signed PDF links, confirmation tokens) never reach the logs.
const SECRET_PARAMS = /([?&](?:sig|token|password)=)[^&]*/gi;

export const scrubUrl = (url: string) => url.replace(SECRET_PARAMS, '$1[redacted]');

/**
 * Fastify's logger and request id options (docs/operations.md "Logs"): JSON lines by pino, the
 * proxy's X-Request-Id kept when it looks sane, otherwise a UUID; no bodies, headers or query
 * secrets are ever logged, so no password, token or answer reaches the logs.
 */
export function loggerOptions(config: Config, enabled: boolean): Partial<FastifyServerOptions> {
  return {
    logger: enabled
      ? {
          level: config.logLevel,
          redact: ['req.headers.authorization', 'req.body.password', 'req.body.token'],
          serializers: {
            req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: scrubUrl(req.url), ip: req.ip }),
          },
        }
      : false,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // One line per request is written by observeRequests, with the user id.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
  };
}

/**
 * Registered after authentication: tags the request's logger with the user id, echoes the request
 * id to the client, and writes one "request completed" line and the metrics of every response.
 */
export function observeRequests(app: FastifyInstance) {
  app.decorate('metrics', createMetrics(app.deps.db));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // request.log is already this request's own child logger (reqId): add to its bindings rather
    // than build a second child on every request.
    // (No setBindings when logging is off: Fastify's abstract logger.)
    const log = request.log as FastifyBaseLogger & { setBindings?: (bindings: Record<string, string>) => void };
    if (request.auth)
      log.setBindings?.(
        request.auth.actorId ? { userId: request.auth.userId, actorId: request.auth.actorId } : { userId: request.auth.userId },
      );
  });
  app.addHook('onResponse', async (request, reply) => {
    app.metrics.observe(request, reply);
    const line = {
      method: request.method,
      url: scrubUrl(request.url),
      route: request.routeOptions?.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (reply.statusCode >= 500) request.log.error(line, 'request completed');
    else request.log.info(line, 'request completed');
  });
}

/** Log lines kept at most this long in memory before they are written. */
const LOG_FLUSH_MS = 500;

/**
 * Production's log destination: stdout written asynchronously in batches of about 4 KiB (at most
 * LOG_FLUSH_MS late) instead of one blocking write per line — the request line was ~10 % of a save's
 * CPU (bench/rush/README.md). Flushed synchronously when the process exits, so a clean stop or a
 * fatal error loses nothing; a kill -9 can lose the last half second of lines, never data.
 */
export function productionLogStream() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // stdout already closed: nothing left to do
    }
  });
  return destination;
}
