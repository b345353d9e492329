import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { openFileStore } from '../files/store-select.js';
import { createBackup, restoreBackup } from './backup.js';

/**
 * `npm run backup [-- DIR]` and `npm run restore -- DIR` (docs/operations.md "Backups"). With the
 * embedded PGlite database, stop the server first: PGlite allows one process at a time.
 */
async function main([command, dir]: string[]) {
  if (command === 'restore' && !dir) throw new Error('Usage : npm run restore -- DOSSIER_DE_SAUVEGARDE');
  if (command !== 'backup' && command !== 'restore') throw new Error('Usage : backup-cli.ts backup [DOSSIER] | restore DOSSIER');
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const deps = { db: database.db, store: openFileStore({ config, db: database.db }) };
    if (command === 'backup') {
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
      const out = path.resolve(dir ?? path.join(config.dataDir, 'backups', `olympe-${stamp}`));
      const m = await createBackup(deps, out);
      const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
      console.log(`Sauvegarde écrite dans ${out} : ${rows} lignes, ${m.files} fichiers PDF.`);
      if (m.missingFiles.length)
        console.warn(`Attention : ${m.missingFiles.length} fichiers introuvables dans le stockage (listés dans manifest.json).`);
    } else {
      const m = await restoreBackup(deps, path.resolve(dir!));
      console.log(`Sauvegarde du ${m.createdAt} restaurée : ${Object.keys(m.tables).length} tables, ${m.files} fichiers PDF.`);
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
