import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { importSchoolsFile, type ImportSummary } from './import.js';

/** `npm run import:schools -- FILE.csv`: opens the database like main.ts, migrates, imports, closes. */
async function main(argv: string[]) {
  const file = argv[0];
  if (!file) {
    console.error('Usage : npm run import:schools -- FICHIER.csv');
    process.exit(2);
  }
  if (!existsSync(file)) {
    console.error(`Fichier introuvable : ${file}`);
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    console.log(`Import de ${path.basename(file)} dans ${database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'}…`);
    const summary = await importSchoolsFile(database.db, path.resolve(file), { onProgress: drawProgress });
    process.stderr.write('\n');
    printSummary(summary);
  } finally {
    await database.close();
  }
}

let lastDraw = 0;
let finished = false;
function drawProgress(read: number, total: number) {
  const now = Date.now();
  if (finished || (now - lastDraw < 100 && read < total)) return;
  finished = read >= total;
  lastDraw = now;
  const ratio = total === 0 ? 1 : read / total;
  const width = 30;
  const done = Math.round(ratio * width);
  const bar = `[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${(ratio * 100).toFixed(0).padStart(3)} %`;
  process.stderr.write(process.stderr.isTTY ? `\r${bar}` : read >= total ? `${bar}\n` : '');
}

function printSummary(s: ImportSummary) {
  const lines = [
    `Lignes lues : ${s.rows}`,
    `Établissements créés : ${s.created}`,
    `Établissements mis à jour : ${s.updated}`,
    `Ignorés (ni collège ni lycée) : ${s.ignored}`,
    `Sans coordonnées (non importés) : ${s.noCoordinates.length}`,
    `Lignes invalides (non importées) : ${s.bad.length}`,
    ...(s.duplicates > 0 ? [`Identifiants UAI en double (dernière ligne retenue) : ${s.duplicates}`] : []),
    `Durée : ${(s.durationMs / 1000).toFixed(1)} s`,
  ];
  console.log(lines.join('\n'));
  const shown = 20;
  if (s.noCoordinates.length > 0) {
    console.log('\nSans coordonnées :');
    for (const r of s.noCoordinates.slice(0, shown)) console.log(`  ligne ${r.line} : ${r.uai} ${r.name}`);
    if (s.noCoordinates.length > shown) console.log(`  … et ${s.noCoordinates.length - shown} autres`);
  }
  if (s.bad.length > 0) {
    console.log('\nLignes invalides :');
    for (const r of s.bad.slice(0, shown)) console.log(`  ligne ${r.line} : ${r.reason}`);
    if (s.bad.length > shown) console.log(`  … et ${s.bad.length - shown} autres`);
  }
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write('\n');
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
