import { randomUUID } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
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
    if (request.auth) {
      const actor = request.auth.actorId ? { actorId: request.auth.actorId } : {};
      request.log = request.log.child({ userId: request.auth.userId, ...actor });
    }
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
