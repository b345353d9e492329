import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users } from '../../server/src/db/schema.js';
import { importSchoolsFile } from '../../server/src/institutions/import.js';
import { generateAnnuaire } from './generate.js';

/**
 * The profile page's first map view at 70,000 schools (decision 89): what a pupil's browser downloads
 * and how long until the map says what it shows, for a pupil whose school is known (the map opens
 * on it) and for one without a school (France view). Cold cache, a new browser context per visit;
 * each visit once unthrottled and once under Lighthouse's mobile network (150 ms RTT, 1.6 Mbit/s).
 *
 * Usage: npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/olympe_bench_maps \
 *          node --import tsx bench/schools/first-view.ts
 * The database is filled once (70,000 synthetic schools) and reused by later runs.
 */
const N = Number(process.env.BENCH_SCHOOLS ?? 70_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-first-view-'));
const database = await openDatabase({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir: dir });
await database.migrate();
const count = async () => Number((await database.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM institutions`)).rows[0].n);
if ((await count()) < N) {
  const csv = path.join(dir, 'annuaire.csv');
  await generateAnnuaire(csv, N);
  await importSchoolsFile(database.db, csv, { batchSize: 2000 });
}
await database.db.execute(sql`ANALYZE institutions`);
console.log(`Base : ${database.kind}, ${await count()} établissements`);

// A school in Paris for the pupil who has one (the generator spreads schools around 24 towns).
const school = (
  await database.db.execute<{ id: string; name: string }>(sql`
    SELECT id, name FROM institutions WHERE confirmed AND latitude BETWEEN 48.85 AND 48.87 AND longitude BETWEEN 2.33 AND 2.37 ORDER BY id LIMIT 1`)
).rows[0];
const config = loadConfig({
  DATA_DIR: dir,
  JWT_SECRET: 'bench-secret-bench-secret-bench',
  LOG_LEVEL: 'silent',
  TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
});
const app = await buildApp({ config, database, logger: false });
const pupil = async (email: string, institutionId: string | null) => {
  const [row] = await database.db
    .insert(users)
    .values({ email, firstName: 'Zoé', lastName: 'Lefèvre', institutionId })
    .onConflictDoUpdate({ target: users.email, set: { institutionId } })
    .returning();
  return app.deps.signer.sign({ userId: row.id, tokenVersion: row.tokenVersion });
};
const withSchool = await pupil('bench-first-view-1@exemple.fr', school.id);
const withoutSchool = await pupil('bench-first-view-2@exemple.fr', null);
const admin = await pupil('bench-first-view-3@exemple.fr', null);
await database.db
  .update(users)
  .set({ isAdmin: true })
  .where(sql`email = 'bench-first-view-3@exemple.fr'`);

// Server side (app.inject, brotli as browsers ask over HTTPS): the whole list against the views the maps ask for.
const serverMedian = async (url: string, token: string) => {
  const times: number[] = [];
  let bytes = 0;
  let body = '';
  for (let i = 0; i < (url === '/api/institution' ? 5 : 15); i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br' } });
    times.push(performance.now() - t0);
    bytes = res.rawPayload.length;
    // Answers under 2 KB go uncompressed (decision 9).
    const raw = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload) : res.rawPayload;
    body = res.statusCode === 200 && url !== '/api/institution' ? raw.toString('utf8') : '';
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], bytes, body };
};
const serverViews: Array<[string, string, string]> = [
  ['GET /institution (toute la liste)', '/api/institution', withoutSchool],
  ['profil, France (zoom 5)', '/api/institution/in-view?south=39.2&west=-5.2&north=52&east=9.9&zoom=5&map=profile', withoutSchool],
  ['profil, Paris (zoom 11)', '/api/institution/in-view?south=48.7&west=2.05&north=49&east=2.65&zoom=11&map=profile', withoutSchool],
  [
    'profil, autour d’un collège (zoom 16)',
    '/api/institution/in-view?south=48.855&west=2.335&north=48.865&east=2.365&zoom=16&map=profile',
    withSchool,
  ],
  ['/map admin, France (zoom 5)', '/api/institution/in-view?south=39.2&west=-5.2&north=52&east=9.9&zoom=5&map=institutions', admin],
  ['/map admin, Lyon (zoom 10)', '/api/institution/in-view?south=45.5&west=4.4&north=46&east=5.3&zoom=10&map=institutions', admin],
];
for (const [label, url, token] of serverViews) {
  const r = await serverMedian(url, token);
  const shape = r.body ? (JSON.parse(r.body) as { total: number; schools: unknown[]; clusters: unknown[] }) : null;
  console.log(
    `Serveur, ${label} : médiane ${r.ms.toFixed(1)} ms, ${(r.bytes / 1024).toFixed(1)} KiB (br)` +
      (shape ? ` — ${shape.total} établissements, ${shape.schools.length} marqueurs, ${shape.clusters.length} groupes` : ''),
  );
}
const address = await app.listen({ port: 0, host: '127.0.0.1' });

/** Bytes on the wire (encoded, headers included) of one visit, by kind. */
interface Visit {
  ms: number;
  api: number;
  map: number;
  assets: number;
  requests: string[];
}

async function visit(page: Page, token: string, throttled: boolean): Promise<Visit> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map<string, string>();
  const sizes = { api: 0, map: 0, assets: 0 };
  const requests: string[] = [];
  const encodings = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.responseReceived', (e) => encodings.set(e.requestId, e.response.headers['content-encoding'] ?? 'identity'));
  cdp.on('Network.loadingFinished', (e) => {
    const url = urls.get(e.requestId) ?? '';
    if (!url.startsWith(address)) return; // tiles point nowhere: not counted
    const pathName = new URL(url).pathname;
    if (pathName.startsWith('/api/institution')) {
      sizes.map += e.encodedDataLength;
      requests.push(`${pathName}${new URL(url).search} ${(e.encodedDataLength / 1024).toFixed(1)} KiB (${encodings.get(e.requestId)})`);
    }
    if (pathName.startsWith('/api/')) sizes.api += e.encodedDataLength;
    else sizes.assets += e.encodedDataLength;
  });
  // The session token is there before the first script runs: the visit to /profile is the first one.
  await page.addInitScript((t) => localStorage.setItem('jwt', t), token);
  if (throttled) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
  }
  const t0 = Date.now();
  await page.goto(`${address}/profile`);
  await page.getByText(/établissements? affichés? sur la carte|dans la zone affichée/).waitFor({ timeout: 300_000 });
  const ms = Date.now() - t0;
  await page.waitForTimeout(throttled ? 3000 : 1000); // late requests (a second view) are counted too
  await cdp.detach();
  return { ms, ...sizes, requests };
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const [label, token] of [
    [`élève avec établissement (${school.name}, vue zoom 16)`, withSchool],
    ['élève sans établissement (vue France)', withoutSchool],
  ] as const) {
    for (const throttled of [false, true]) {
      const visits: Visit[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        visits.push(await visit(await context.newPage(), token, throttled));
        await context.close();
      }
      const last = visits[visits.length - 1];
      console.log(
        `${label}, ${throttled ? 'réseau mobile (150 ms, 1,6 Mbit/s)' : 'sans limite'} : carte prête en ${visits.map((v) => v.ms).join(' / ')} ms (médiane ${median(visits.map((v) => v.ms))}) ; ` +
          `établissements ${kib(last.map)}, API en tout ${kib(last.api)}, fichiers de l’app ${kib(last.assets)}`,
      );
      for (const r of last.requests) console.log(`    ${r}`);
    }
  }
} finally {
  await browser.close();
  await app.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
