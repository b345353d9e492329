import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { groupMembers, institutions, jobs, TEACHERS_GROUP_ID, users } from '../../server/src/db/schema.js';
import { importSchoolsFile } from '../../server/src/institutions/import.js';
import { generateAnnuaire } from '../schools/generate.js';

/**
 * Decisions 66–68, measured: (1) POST /api/users/import of a 5,000-line CSV (preview, then the real import,
 * then the same file again), against the 30 s the issue allows; (2) GET /api/institution/search on
 * 70,000 schools, by name, town, postcode and UAI (the words index of migration 0012_first_hour).
 * PGlite by default, PostgreSQL with DATABASE_URL (an empty database).
 * Usage: node --import tsx bench/first-hour/measure.ts   (BENCH_PUPILS, BENCH_SCHOOLS to change sizes)
 */
const PUPILS = Number(process.env.BENCH_PUPILS ?? 5_000);
const SCHOOLS = Number(process.env.BENCH_SCHOOLS ?? 70_000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-first-hour-'));
const databaseUrl = process.env.DATABASE_URL;
const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: dir });
await database.migrate();
const csv = path.join(dir, 'annuaire.csv');
await generateAnnuaire(csv, SCHOOLS);
let t = performance.now();
await importSchoolsFile(database.db, csv, { batchSize: 2000 });
console.log(`${SCHOOLS.toLocaleString('fr-FR')} établissements importés (mots d’index compris) en ${Math.round(performance.now() - t)} ms`);

const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'bench-secret-bench-secret-bench', LOG_LEVEL: 'silent', JOBS_WORKER: 'off' });
const app = await buildApp({ config, database, logger: false });
const [school] = await database.db.select({ id: institutions.id, name: institutions.name }).from(institutions).limit(1);
const [teacher] = await database.db.insert(users).values({ email: 'prof@bench.fr', institutionId: school.id }).returning();
await database.db.insert(groupMembers).values({ groupId: TEACHERS_GROUP_ID, userId: teacher.id });
const headers = { authorization: `Bearer ${await app.deps.signer.sign({ userId: teacher.id, tokenVersion: 0 })}` };

// (1) The import.
const lines = ['E-mail;Prénom;Nom;Date de naissance;Classe;Genre;E-mail parent'];
for (let i = 0; i < PUPILS; i++)
  lines.push(
    `eleve${i}@bench.fr;Élève${i};Nom${i};${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/2011;3e;${i % 2 ? 'F' : 'M'};parent${i}@bench.fr`,
  );
const file = Buffer.from(lines.join('\r\n'));
const send = async (preview: boolean) => {
  const boundary = 'bench' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="preview"\r\n\r\n${preview}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="eleves.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const started = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/users/import',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  const body = res.json() as { created: number; existing: number; rejected: unknown[] };
  return {
    ms: Math.round(performance.now() - started),
    status: res.statusCode,
    created: body.created,
    existing: body.existing,
    rejected: body.rejected?.length,
  };
};
for (const [label, preview] of [
  ['aperçu', true],
  ['import', false],
  ['même fichier à nouveau', false],
] as const) {
  const r = await send(preview);
  console.log(
    `Import de ${PUPILS.toLocaleString('fr-FR')} lignes, ${label} : ${r.ms} ms (HTTP ${r.status}, créés ${r.created}, existants ${r.existing}, refusés ${r.rejected})`,
  );
}
const queued = await database.db.$count(jobs);
console.log(`Invitations en file : ${queued}`);

// (2) The search.
const [sample] = await database.db
  .select({ uai: institutions.uai, address: institutions.address, name: institutions.name })
  .from(institutions)
  .where(undefined)
  .limit(1)
  .offset(1234);
const postcode = /\b(\d{5})\b/.exec(sample.address)?.[1] ?? '75001';
const town = sample.address.split(' ').pop() ?? 'Paris';
const queries = ['college', 'lycee jean', sample.name.split(' ').slice(-1)[0], town, postcode, sample.uai ?? '', 'zzzz'];
for (const q of queries) {
  const runs: number[] = [];
  let found = 0;
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/institution/search?q=${encodeURIComponent(q)}`, headers });
    runs.push(performance.now() - started);
    found = (res.json() as { results: unknown[] }).results.length;
  }
  runs.sort((a, b) => a - b);
  console.log(`Recherche « ${q} » : médiane ${runs[10].toFixed(1)} ms, max ${runs[19].toFixed(1)} ms (${found} résultat(s) envoyés)`);
}
await app.close();
await database.close();
rmSync(dir, { recursive: true, force: true });
