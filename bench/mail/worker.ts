/**
 * The mail-sending instance of bench/mail: the real app (buildApp) with its mail workers, on the
 * DATABASE_URL and SMTP_URL the bench gives; it serves no HTTP. The bench kills it with SIGKILL.
 */
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const database = await openDatabase({ databaseUrl: config.databaseUrl });
const app = await buildApp({ config, database, logger: false });
await app.ready();
process.send?.('ready');
