import { selectionAfterRoutes } from './selections/after-routes.js';
import { selectionRoutes } from './selections/routes.js';
import path from 'node:path';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resolveAuth } from './auth/context.js';
import { securityHeaders } from './http/security-headers.js';
import { authRoutes } from './auth/routes.js';
import { purgeEndedSessions } from './auth/sessions.js';
import { createTokenSigner } from './auth/tokens.js';
import { chapterRoutes } from './chapters/routes.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Deps } from './deps.js';
import { exerciseRoutes } from './exercises/routes.js';
import { closeStatementPool } from './exercises/statement-html.js';
import { groupRoutes } from './groups/routes.js';
import { refuseWhileClosing, registerErrorHandling, sendFrameworkError } from './http/errors.js';
import { addErrorCodes } from './errors.js';
import { institutionRoutes } from './institutions/routes.js';
import { createMailer, type Mail, type Mailer } from './mail/mailer.js';
import { postgresRateLimiter, RATE_LIMIT_PURGE_MS, redisRateLimiter, startRateLimitPurge } from './http/rate-limit.js';
import { userRoutes } from './users/routes.js';
import { serveWebApp } from './web-app.js';
import { sessionRoutes } from './sessions/routes.js';
import { answerRoutes } from './answers/routes.js';
import { fileRoutes } from './files/routes.js';
import { limitOf } from './files/uploads.js';
import { commentBankRoutes } from './grading/comment-bank-routes.js';
import { gradingRoutes } from './grading/routes.js';
import { centerRoutes } from './centers/routes.js';
import { examDayRoutes } from './centers/exam-day-routes.js';
import { mailRoutes } from './mail/routes.js';
import { sortingRoutes } from './sorting/routes.js';
import { opsRoutes } from './ops/routes.js';
import { closePdfPool } from './pdf/pdf-pool.js';
import { closeImportPool } from './users/import-file.js';
import { analysisRoutes } from './analysis/routes.js';
import { resultsRoutes } from './results/routes.js';
import { sheetRoutes } from './sheets/routes.js';
import { regradeRoutes } from './regrade/routes.js';
import { statsRoutes } from './stats/routes.js';
import { loggerOptions, observeRequests } from './ops/logging.js';

z.config(z.locales.fr());

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** Called after each mail written to the outbox (no SMTP_URL): the demo prints its link. */
  onOutboxMail?: (mail: Mail, file: string) => void;
  logger?: boolean;
  /** Where the JSON log lines go (tests read them); stdout by default. */
  logStream?: { write(line: string): void };
}

type Api = FastifyInstance;

/** What every route is given: the database, the configuration, the token signer, the limiter, the mailer. */
function createDeps(opts: AppOptions, app: FastifyInstance): Deps {
  const { config, database } = opts;
  return {
    db: database.db,
    config,
    signer: createTokenSigner(config.jwtSecret),
    log: app.log,
    limiter: config.redisUrl ? redisRateLimiter(config.redisUrl) : postgresRateLimiter(database.db),
    mailer:
      opts.mailer ??
      createMailer({
        db: database.db,
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        outboxDir: path.join(config.dataDir, 'outbox'),
        log: app.log,
        onOutboxMail: opts.onOutboxMail,
      }),
  };
}

/** The same for every visitor: also written into the page itself (web-app.ts), so the app does not wait for it. */
function publicConfigOf(config: Config) {
  return {
    contactEmail: config.contactEmail,
    tileUrl: config.tileUrl,
    // Decision 87: whether /map offers the address search.
    geocoder: !!config.geocoderUrl,
    // Decision 91: the size limit of a scan, said on the upload form before a file is chosen.
    maxScanMb: Math.round((limitOf(config, 'chapter') / (1024 * 1024)) * 10) / 10,
  };
}

/** Computed once: @fastify/helmet rebuilt helmet's middleware on every request (~30 % of a save's CPU, bench/rush). */
function headersOf(config: Config) {
  return securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the centre page compile zxing-wasm to read convocation QR codes (decision 59); no JS eval.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Mantine and KaTeX inject style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', tileOrigin(config.tileUrl)],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'same-origin' },
  });
}

/** The periodic purges of this instance, started when the app is ready and stopped when it closes. */
function startPurges(app: FastifyInstance, config: Config, database: Database) {
  // The counters of a login flood: one row per address and e-mail tried (decision 37).
  if (!config.redisUrl && config.jobsWorker !== false) {
    let purge: ReturnType<typeof startRateLimitPurge> | undefined;
    app.addHook('onReady', async () => {
      purge = startRateLimitPurge(database.db, app.log);
    });
    app.addHook('onClose', async () => purge?.stop());
  }
  // Ended sessions (decision 136), whichever store holds the rate limits.
  if (config.jobsWorker !== false) {
    let purge: ReturnType<typeof startRateLimitPurge> | undefined;
    app.addHook('onReady', async () => {
      purge = startRateLimitPurge(database.db, app.log, RATE_LIMIT_PURGE_MS, { run: purgeEndedSessions, what: 'auth session' });
    });
    app.addHook('onClose', async () => purge?.stop());
  }
}

/** Every area's routes under /api, with the health check, the public config and the API docs. */
async function registerApi(api: Api, app: FastifyInstance, deps: Deps, publicConfig: ReturnType<typeof publicConfigOf>, apiDocs: boolean) {
  api.get('/health', { schema: { hide: true } }, async () => {
    await deps.db.execute(sql`SELECT 1`);
    return { ok: true };
  });
  api.get('/config', { schema: { tags: ['config'] } }, async () => publicConfig);
  if (apiDocs) api.get('/docs', { schema: { hide: true } }, async () => app.swagger());
  await api.register(authRoutes, { deps });
  await api.register(groupRoutes, { deps });
  await api.register(chapterRoutes, { deps });
  await api.register(exerciseRoutes, { deps });
  await api.register(institutionRoutes, { deps });
  await api.register(userRoutes, { deps });
  await api.register(sessionRoutes, { deps });
  await api.register(answerRoutes, { deps });
  await api.register(fileRoutes, { deps });
  await api.register(gradingRoutes, { deps });
  await api.register(commentBankRoutes, { deps });
  await api.register(examDayRoutes, { deps });
  await api.register(centerRoutes, { deps });
  await api.register(mailRoutes, { deps });
  await api.register(sortingRoutes, { deps });
  await api.register(opsRoutes, { deps });
  await api.register(analysisRoutes, { deps });
  await api.register(sheetRoutes, { deps });
  await api.register(resultsRoutes, { deps });
  await api.register(regradeRoutes, { deps });
  await api.register(statsRoutes, { deps });
  await api.register(selectionRoutes, { deps });
  await api.register(selectionAfterRoutes, { deps });
}

/** The whole API as a Fastify instance, without listening (tests use inject). */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const logging = loggerOptions(config, opts.logger !== false);
  if (opts.logStream && logging.logger) logging.logger = { ...(logging.logger as object), stream: opts.logStream };
  const app = Fastify({
    ...logging,
    bodyLimit: 1024 * 1024,
    // Only a reverse proxy on this host by default: a client cannot choose its own IP (decision 24).
    trustProxy: config.trustProxy ?? 'loopback',
    frameworkErrors: sendFrameworkError,
    // refuseWhileClosing answers in French instead.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const deps = createDeps(opts, app);
  app.decorate('deps', deps);
  app.addHook('onClose', async () => deps.limiter.close());
  app.addHook('onClose', closePdfPool);
  app.addHook('onClose', closeImportPool);
  app.addHook('onClose', closeStatementPool);
  app.decorateRequest('auth', null);
  app.decorateRequest('authRejected', false);

  const publicConfig = publicConfigOf(config);
  registerErrorHandling(app);
  addErrorCodes(app);
  // GET /institution carries ~70,000 schools: compressed it stays under 3 MB (bench/schools).
  await app.register(compress, { threshold: 2048 });
  const headers = headersOf(config);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
  refuseWhileClosing(app);
  const apiDocs = config.apiDocs !== false;
  if (apiDocs) {
    await app.register(swagger, {
      openapi: { info: { title: 'Olympe API', version: '0.1.0' } },
      transform: jsonSchemaTransform,
    });
  }
  startPurges(app, config, database);

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    // API answers carry personal data: no browser or proxy keeps them, unless a route says otherwise
    // (the PDFs, files/routes.ts). Set here rather than in an onSend hook: one header, no extra hook per save.
    reply.header('cache-control', 'no-store');
    const { auth, rejected } = await resolveAuth(deps.db, deps.signer, request.headers.authorization, request);
    request.auth = auth;
    request.authRejected = rejected;
  });
  observeRequests(app);

  await app.register((api) => registerApi(api, app, deps, publicConfig, apiDocs), { prefix: '/api' });

  await serveWebApp(app, config.webDist, publicConfig);
  return app;
}

function tileOrigin(tileUrl: string): string {
  try {
    const host = new URL(tileUrl.replace(/\{[a-z]\}/g, 'a')).origin;
    return host.replace('://a.', '://*.');
  } catch {
    return "'self'";
  }
}
