import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { bootstrapAdmin } from './auth/service.js';
import { loadConfig } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { productionLogStream } from './ops/logging.js';
import { warmStatementPool } from './exercises/statement-html.js';
import { warmPdfPool } from './pdf/pdf-pool.js';

/** Production start: config, migrations, first admin, listen; a clean stop on SIGTERM/SIGINT. */
export async function start(env: NodeJS.ProcessEnv = process.env) {
  // The API's description is an attack map: production shows it only when API_DOCS=on asks for it.
  const config = loadConfig(env, { apiDocs: false });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const app = await buildApp({ config, database, logStream: productionLogStream() });
  if (config.adminEmail) await bootstrapAdmin(app.deps, config.adminEmail);
  await app.listen({ port: config.port, host: config.host });
  // The PDF threads load their modules now, not inside the first upload's time cap.
  warmPdfPool().catch((err: unknown) => app.log.error({ err }, 'PDF worker threads failed to start'));
  // And the statement drawing thread (decision 122), not while the first pupil of a chapter waits.
  warmStatementPool().catch((err: unknown) => app.log.error({ err }, 'statement drawing thread failed to start'));
  if (!env.CONTACT_EMAIL && /^no-?reply@/i.test(config.contactEmail)) {
    app.log.warn(
      { contactEmail: config.contactEmail },
      'CONTACT_EMAIL is not set: the home and privacy pages tell users to write to the no-reply sender',
    );
  }
  let stopping: Promise<void> | undefined;
  const stop = (signal: NodeJS.Signals) => {
    stopping ??= gracefulStop(app, database, signal).then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return { app, config, database };
}

/** After this, requests still running are abandoned and the process exits (1). */
const STOP_TIMEOUT_MS = 25_000;

/**
 * The listening socket closes at once (new connections are refused; a request arriving on a kept-alive
 * connection gets 503 with the French message and `Connection: close`, http/errors.ts refuseWhileClosing), requests in flight finish and are sent, then
 * the database pool closes. Fastify keeps idle connections 72 s: the sockets of requests answered after
 * the stop began are closed as soon as they are idle, or the stop would wait for them.
 */
export async function gracefulStop(app: FastifyInstance, database: Database, signal: string): Promise<void> {
  app.log.info({ signal }, 'stopping: finishing the requests in flight');
  const timeout = setTimeout(() => {
    app.log.error(`stop: requests still running after ${STOP_TIMEOUT_MS / 1000} s, exiting`);
    process.exit(1);
  }, STOP_TIMEOUT_MS);
  timeout.unref();
  const closing = app.close();
  const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await closing;
  } finally {
    clearInterval(reaper);
  }
  await database.close();
  app.log.info('stopped: database closed');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  start().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
