import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { openFileStore } from '../files/store-select.js';
import { purgeInactiveUsers } from './purge.js';

/** `npm run purge -- --before 2024 [--dry-run]`: see docs/operations.md. */
async function main(argv: string[]) {
  const at = argv.indexOf('--before');
  const year = at >= 0 ? Number(argv[at + 1]) : NaN;
  if (!Number.isInteger(year) || year < 2000 || year > 2100) {
    throw new Error('Usage : npm run purge -- --before ANNÉE [--dry-run]  (ex. --before 2024)');
  }
  const dryRun = argv.includes('--dry-run');
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const store = openFileStore({ config, db: database.db });
    const r = await purgeInactiveUsers({ db: database.db, store }, year, { dryRun });
    const verb = dryRun ? 'seraient' : 'ont été';
    console.log(
      `Comptes inactifs depuis avant le 1er janvier ${year} : ${r.deleted} ${verb} supprimés, ${r.anonymised} ${verb} anonymisés` +
        (dryRun ? '.' : ` (${r.filesErased} fichiers effacés).`),
    );
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
