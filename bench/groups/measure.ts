/**
 * Decision 11: a group of 10,000 members must load smoothly.
 * Creates 10,000 users (with institutions) in one group on a fresh in-memory PGlite, or on
 * PostgreSQL when DATABASE_URL is set (use a throw-away database), then times GET /api/group/{id}
 * through app.inject and reports the body size raw and gzipped.
 *
 *   node --import tsx bench/groups/measure.ts            # PGlite
 *   DATABASE_URL=postgres://... node --import tsx bench/groups/measure.ts
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { groups, users } from '../../server/src/db/schema.js';

const MEMBERS = Number(process.env.MEMBERS ?? 10_000);
const RUNS = 10;

const database = process.env.DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.DATABASE_URL })
  : await openDatabase({ pglite: await PGlite.create() });
await database.migrate();
const { db } = database;
const config = loadConfig({
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-groups-')),
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  LOG_LEVEL: 'silent',
});
const app = await buildApp({ config, database, logger: false });

const run = Date.now().toString(36);
const [group] = await db
  .insert(groups)
  .values({ name: `Bench ${run}` })
  .returning();
const seedStart = performance.now();
await db.execute(sql`
  INSERT INTO institutions (name, address, email, confirmed)
  SELECT 'Lycée ' || i || ' ' || ${run}, i || ' rue de la République, 75001 Paris', 'ce.' || i || '@ac-paris.fr', true
  FROM generate_series(1, 200) AS i`);
await db.execute(sql`
  INSERT INTO users (email, first_name, last_name, birth_date, gender, grade, default_choice,
                     email_parent, email_notifications, institution_id)
  SELECT 'eleve' || i || '.' || ${run} || '@exemple.fr',
         (ARRAY['Léa','Hugo','Chloé','Noé','Inès','Lucas','Zoé','Théo'])[1 + i % 8],
         (ARRAY['Martin','Bernard','Dubois','Thomas','Robert','Richard','Petit','Durand','Lefèvre','Moreau'])[1 + i % 10] || ' ' || i,
         DATE '2008-01-01' + (i % 2000),
         (ARRAY['male','female','other'])[1 + i % 3],
         (ARRAY['5eme','4eme','3eme','2nde','1ere','Tale'])[1 + i % 6],
         (ARRAY['local','global'])[1 + i % 2],
         'parent' || i || '.' || ${run} || '@exemple.fr',
         i % 2 = 0,
         (SELECT id FROM institutions WHERE name = 'Lycée ' || (1 + i % 200) || ' ' || ${run})
  FROM generate_series(1, ${MEMBERS}) AS i`);
await db.execute(sql`
  INSERT INTO group_members (group_id, user_id)
  SELECT ${group.id}::uuid, id FROM users WHERE email LIKE ${`%.${run}@exemple.fr`} AND email LIKE 'eleve%'`);
const seedMs = performance.now() - seedStart;

const [admin] = await db
  .insert(users)
  .values({ email: `admin.${run}@exemple.fr`, isAdmin: true })
  .returning();
const headers = { authorization: `Bearer ${await app.deps.signer.sign({ userId: admin.id, tokenVersion: 0 })}` };

const times: number[] = [];
let body = '';
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const res = await app.inject({ method: 'GET', url: `/api/group/${group.id}`, headers });
  times.push(performance.now() - t0);
  if (res.statusCode !== 200) throw new Error(`GET /group/{id} answered ${res.statusCode}: ${res.body}`);
  body = res.body;
}
const count = (JSON.parse(body) as { members: unknown[] }).members.length;

// Saving the whole list back (PATCH with every e-mail, nothing changes) and removing one member.
const emails = (JSON.parse(body) as { members: Array<{ email: string }> }).members.map((m) => m.email);
const patch = async (members: string[]) => {
  const t0 = performance.now();
  const res = await app.inject({ method: 'PATCH', url: `/api/group/${group.id}`, headers, payload: { members } });
  if (res.statusCode !== 200) throw new Error(`PATCH answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return performance.now() - t0;
};
const patchSame = await patch(emails);
const patchMinusOne = await patch(emails.slice(1));

const sorted = [...times].sort((a, b) => a - b);
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
console.log(`database: ${database.kind}; members: ${count}; seed: ${fmt(seedMs)}`);
console.log(
  `GET /group/{id} over ${RUNS} runs: first ${fmt(times[0])}, median ${fmt(sorted[Math.floor(RUNS / 2)])}, max ${fmt(sorted[RUNS - 1])}`,
);
console.log(`body: ${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB raw, ${(gzipSync(body).length / 1024).toFixed(0)} KiB gzip`);
console.log(`PATCH /group/{id} full list (${emails.length} e-mails, no change): ${fmt(patchSame)}; minus one: ${fmt(patchMinusOne)}`);

await app.close();
await database.close();
