import { rmSync } from 'node:fs';
import path from 'node:path';
import { hashPassword } from './auth/service.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { seedDemo, DEMO_PASSWORD } from './demo-data.js';
import { openFileStore } from './files/store-select.js';

/**
 * `npm run demo`: a fresh embedded database in DATA_DIR (default ./data/demo) filled with
 * demonstration data, then the app on http://localhost:PORT. Never used by `npm start`.
 */
async function main() {
  // The home and privacy pages give CONTACT_EMAIL to write to: never the no-reply sender in the demo.
  const env = { ...process.env, DATA_DIR: process.env.DATA_DIR ?? './data/demo', CONTACT_EMAIL: process.env.CONTACT_EMAIL ?? 'contact@olympe.demo' };
  const dataDir = path.resolve(env.DATA_DIR);
  rmSync(dataDir, { recursive: true, force: true });
  const config = loadConfig(env);
  const database = await openDatabase({ dataDir: config.dataDir });
  await database.migrate();
  const store = openFileStore({ config, db: database.db });
  const accounts = await seedDemo(database.db, store, await hashPassword(DEMO_PASSWORD));
  const app = await buildApp({ config, database, logger: false });
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}`;
  const width = Math.max(...accounts.map((a) => a.email.length));
  console.log(`\nOlympe (démonstration) est prêt : ${url}\n`);
  console.log(`Comptes de démonstration (mot de passe pour tous : ${DEMO_PASSWORD}) :`);
  for (const a of accounts) console.log(`  ${a.email.padEnd(width)}  ${a.role}`);
  console.log(`\nLes courriels (inscription, mot de passe, convocations et notifications) sont écrits dans ${path.join(config.dataDir, 'outbox')}.`);
  console.log('Arrêt : Ctrl+C.\n');
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
