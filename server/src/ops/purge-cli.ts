import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { openFileStore } from '../files/store-select.js';
import { purgeBin, purgeInactiveUsers } from './purge.js';

const USAGE = 'Usage : npm run purge -- [--before ANNÉE] [--dry-run]  (ex. --before 2024)';

/**
 * `npm run purge [-- --before 2024] [--dry-run]`: see docs/operations.md. Always empties the bin of
 * entries older than 30 days (decision 73); with `--before`, also purges inactive accounts.
 */
async function main(argv: string[]) {
  const at = argv.indexOf('--before');
  const year = at >= 0 ? Number(argv[at + 1]) : null;
  if (year !== null && (!Number.isInteger(year) || year < 2000 || year > 2100)) throw new Error(USAGE);
  const unknown = argv.filter((a, i) => a !== '--dry-run' && a !== '--before' && !(at >= 0 && i === at + 1));
  if (unknown.length > 0) throw new Error(USAGE);
  const dryRun = argv.includes('--dry-run');
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const verb = dryRun ? 'seraient' : 'ont été';
    const store = openFileStore({ config, db: database.db });
    const bin = await purgeBin({ db: database.db, store }, new Date(), { dryRun });
    console.log(
      `Corbeille (plus de 30 jours) : ${bin.chapters} chapitre(s) et ${bin.exercises} exercice(s) ${dryRun ? 'seraient supprimés' : 'supprimés définitivement'}` +
        `, avec ${bin.filesErased} fichier(s) PDF.`,
    );
    if (year === null) return;
    const r = await purgeInactiveUsers({ db: database.db, store }, year, { dryRun });
    console.log(
      `Comptes inactifs depuis avant le 1er janvier ${year} : ${r.deleted} ${verb} supprimés, ${r.anonymised} ${verb} anonymisés` +
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
