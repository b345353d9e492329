import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { hashPassword } from './auth/service.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { seedDemo, DEMO_PASSWORD } from './demo-data.js';
import { openFileStore } from './files/store-select.js';
import { firstLinkOf } from './mail/mailer.js';

/**
 * Whether HOST:PORT can be listened on, tried before anything is deleted: a demo started twice used
 * to wipe the running one's data and then die on EADDRINUSE (decision 66).
 */
function portProblem(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) =>
      resolve(
        err.code === 'EADDRINUSE'
          ? `Le port ${port} est déjà utilisé (une autre démonstration tourne peut-être encore). Arrêtez-la, ou choisissez un autre port : PORT=3001 npm run demo`
          : `Impossible d’écouter sur ${host}:${port} (${err.code ?? err.message}). Choisissez un autre port : PORT=3001 npm run demo`,
      ),
    );
    probe.listen({ port, host }, () => probe.close(() => resolve(null)));
  });
}

/**
 * `npm run demo`: a fresh embedded database in DATA_DIR (default ./data/demo) filled with
 * demonstration data, then the app on http://localhost:PORT. Never used by `npm start`.
 */
async function main() {
  // The home and privacy pages give CONTACT_EMAIL to write to: never the no-reply sender in the demo.
  const env = {
    ...process.env,
    DATA_DIR: process.env.DATA_DIR ?? './data/demo',
    CONTACT_EMAIL: process.env.CONTACT_EMAIL ?? 'contact@olympe.demo',
  };
  const config = loadConfig(env);
  const problem = await portProblem(config.port, config.host);
  if (problem) {
    console.error(`\n${problem}\nLes données de ${path.resolve(config.dataDir)} n’ont pas été touchées.\n`);
    process.exit(1);
  }
  const dataDir = path.resolve(env.DATA_DIR);
  rmSync(dataDir, { recursive: true, force: true });
  const database = await openDatabase({ dataDir: config.dataDir });
  await database.migrate();
  const store = openFileStore({ config, db: database.db });
  const accounts = await seedDemo(database.db, store, await hashPassword(DEMO_PASSWORD));
  const app = await buildApp({
    config,
    database,
    logger: false,
    // Each mail's link is printed: no need to open the .eml to follow a sign-up.
    onOutboxMail: (mail, file) => {
      const link = firstLinkOf(mail);
      console.log(`Courriel à ${mail.to} : « ${mail.subject} »${link ? `\n  lien : ${link}` : ''}\n  fichier : ${file}`);
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}`;
  const width = Math.max(...accounts.map((a) => a.email.length));
  console.log(`\nOlympe (démonstration) est prêt : ${url}\n`);
  console.log(`Comptes de démonstration (mot de passe pour tous : ${DEMO_PASSWORD}) :`);
  for (const a of accounts) console.log(`  ${a.email.padEnd(width)}  ${a.role}`);
  console.log(
    `\nLes courriels (inscription, mot de passe, convocations et notifications) sont écrits dans ${path.join(config.dataDir, 'outbox')} ; leurs liens s’affichent aussi ici.`,
  );
  console.log('Arrêt : Ctrl+C.\n');
  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`\nLa démonstration n’a pas pu démarrer : ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
