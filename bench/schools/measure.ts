import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  buildSchoolIndex,
  filterSchools,
  type Institution,
  selectInstitutionMarkers,
  selectProfileMarkers,
  spreadSameLocation,
  withinBounds,
} from '@olympe/contract';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users } from '../../server/src/db/schema.js';
import { importSchoolsFile } from '../../server/src/institutions/import.js';
import { generateAnnuaire } from './generate.js';

/**
 * Speed at real volume (issue "Profiles, schools and maps"): 70,000 institutions.
 * Usage: node --import tsx bench/schools/measure.ts   (BENCH_DATABASE_URL=postgres://... for PostgreSQL)
 * Prints the figures recorded in bench/schools/README.md.
 */
const N = Number(process.env.BENCH_SCHOOLS ?? 70_000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-schools-'));
  const csv = path.join(dir, `annuaire-${N}.csv`);
  if (!existsSync(csv)) await generateAnnuaire(csv, N);
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const database = await openDatabase({ databaseUrl, dataDir: dir });
  await database.migrate();
  console.log(`Base : ${database.kind}${database.kind === 'pglite' ? ' (fichier, DATA_DIR temporaire)' : ''}, ${N} établissements`);

  // 1. Import (fresh database), then a second run (all updates).
  const first = await importSchoolsFile(database.db, csv);
  console.log(`Import initial : ${(first.durationMs / 1000).toFixed(1)} s (${first.created} créés)`);
  const second = await importSchoolsFile(database.db, csv);
  console.log(`Import relancé : ${(second.durationMs / 1000).toFixed(1)} s (${second.updated} mis à jour, ${second.created} créés)`);

  // 2. GET /institution on the wire.
  const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'bench-secret-bench-secret-bench', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, logger: false });
  const [user] = await database.db.insert(users).values({ email: 'bench@exemple.fr' }).returning();
  const token = await app.deps.signer.sign({ userId: user.id, tokenVersion: user.tokenVersion });
  let list: Institution[] = [];
  for (const encoding of ['identity', 'gzip', 'br']) {
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const res = await app.inject({
        method: 'GET',
        url: '/api/institution',
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding },
      });
      times.push(performance.now() - t0);
      size = res.rawPayload.length;
      if (i === 0) {
        const raw =
          encoding === 'gzip' ? gunzipSync(res.rawPayload) : encoding === 'br' ? brotliDecompressSync(res.rawPayload) : res.rawPayload;
        list = JSON.parse(raw.toString('utf8'));
      }
    }
    console.log(`GET /institution (${encoding}) : ${mb(size)}, médiane ${ms(median(times))} (${list.length} établissements)`);
  }
  await app.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });

  // 3. Profile filter: the index is built once, then each keystroke filters 70,000 entries.
  const t0 = performance.now();
  const index = buildSchoolIndex(list);
  console.log(`Index du filtre (une fois, à l'arrivée de la liste) : ${ms(performance.now() - t0)}`);
  const queries = ['l', 'ly', 'lyc', 'lycé', 'lycée', 'lycée j', 'lycée je', 'lycée jea', 'lycée jean', 'lycée jean ', 'lycée jean j',
    'lycée jean jaurès', 'c', 'co', 'col', 'coll', 'collège', 'collège émile', 'collège émile zola paris', 'ZOLA', 'evariste', 'e'];
  const perKey: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      const k0 = performance.now();
      const found = filterSchools(index, q);
      // What the page then does with the result: the schools in view, the marker rule, the spreading.
      const inView = withinBounds(found, { south: 41, west: -5.5, north: 51.5, east: 10 });
      const sel = selectProfileMarkers(inView);
      spreadSameLocation(sel.markers);
      if (round > 0) perKey.push(performance.now() - k0);
    }
  }
  console.log(`Filtre par frappe (${queries.length} requêtes × 2) : médiane ${ms(median(perKey))}, max ${ms(Math.max(...perKey))}`);

  // 4. Map pan/zoom: the work of one redraw (bounds, marker rules, spreading) over 70,000.
  const views = [
    { south: 41, west: -5.5, north: 51.5, east: 10 },
    { south: 48.7, west: 2.1, north: 49.0, east: 2.6 },
    { south: 48.84, west: 2.33, north: 48.86, east: 2.36 },
    { south: 43.2, west: 5.2, north: 43.4, east: 5.5 },
  ];
  const redraw: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const v of views) {
      const r0 = performance.now();
      const inView = withinBounds(list, v);
      spreadSameLocation(selectProfileMarkers(inView).markers);
      spreadSameLocation(selectInstitutionMarkers(inView, true).markers);
      redraw.push(performance.now() - r0);
    }
  }
  console.log(`Calcul d'un redessin de carte : médiane ${ms(median(redraw))}, max ${ms(Math.max(...redraw))}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
