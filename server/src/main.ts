import { buildApp } from './app.js';
import { bootstrapAdmin } from './auth/service.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';

/** Production start: config, migrations, first admin, listen; a clean stop on SIGTERM/SIGINT. */
export async function start(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const app = await buildApp({ config, database });
  if (config.adminEmail) await bootstrapAdmin(app.deps, config.adminEmail);
  await app.listen({ port: config.port, host: config.host });
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return { app, config, database };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  start().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
