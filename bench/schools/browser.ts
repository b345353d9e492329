import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { users } from '../../server/src/db/schema.js';
import { seedInstitutionsDemo } from '../../server/src/institutions/demo.js';
import { importSchoolsFile } from '../../server/src/institutions/import.js';
import { generateAnnuaire } from './generate.js';

/**
 * In the browser (Debian's Chromium, built web app), with 70,000 institutions: time to get the list,
 * the longest main-thread task while typing in the profile filter and while panning/zooming.
 * Usage: npm run build && node --import tsx bench/schools/browser.ts
 */
const N = Number(process.env.BENCH_SCHOOLS ?? 70_000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-browser-'));
const csv = path.join(dir, 'annuaire.csv');
await generateAnnuaire(csv, N);
const database = await openDatabase({ dataDir: dir });
await database.migrate();
await importSchoolsFile(database.db, csv, { batchSize: 2000 });
await seedInstitutionsDemo(database.db);
const config = loadConfig({
  DATA_DIR: dir,
  JWT_SECRET: 'bench-secret-bench-secret-bench',
  LOG_LEVEL: 'silent',
  TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
});
const app = await buildApp({ config, database, logger: false });
const [admin] = await database.db
  .insert(users)
  .values({ email: 'admin@exemple.fr', isAdmin: true, firstName: 'A', lastName: 'B' })
  .returning();
const token = await app.deps.signer.sign({ userId: admin.id, tokenVersion: 0 });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(address);
  await page.evaluate((t) => localStorage.setItem('jwt', t), token);
  await page.addInitScript(() => {
    (window as any).__longTasks = [];
    new PerformanceObserver((l) => (window as any).__longTasks.push(...l.getEntries().map((e) => e.duration))).observe({
      type: 'longtask',
      buffered: true,
    });
  });
  const t0 = Date.now();
  await page.goto(`${address}/profile`);
  await page.getByText(/établissements? affichés? sur la carte|dans la zone affichée/).waitFor({ timeout: 120_000 });
  console.log(`Profil : liste reçue et indexée en ${Date.now() - t0} ms (navigation comprise)`);
  const takeLong = () => page.evaluate(() => (window as any).__longTasks.splice(0) as number[]);
  await page.waitForTimeout(1000);
  const loadTasks = await takeLong();
  console.log(`  tâches longues au chargement : max ${Math.round(Math.max(0, ...loadTasks))} ms`);

  const search = page.getByLabel('Rechercher un établissement');
  const keyTimes: number[] = [];
  for (const q of ['lycée jean jaurès', 'collège émile zola paris']) {
    await search.fill('');
    for (const ch of q) {
      await search.pressSequentially(ch);
      await page.waitForTimeout(350); // past the 300 ms debounce: each keystroke filters
      keyTimes.push(...(await takeLong()));
    }
  }
  console.log(
    `Filtre du profil (${N} établissements, une frappe toutes les 350 ms) : tâche la plus longue ${Math.round(Math.max(0, ...keyTimes))} ms, ${keyTimes.length} tâches > 50 ms`,
  );
  await search.fill('');
  await page.waitForTimeout(500);
  await takeLong();

  // Pan and zoom around a Paris school: chosen from the results (zoom 16), then zoom out step by step
  // through views of fewer and more than 100 schools, then drag the map.
  await search.fill('collège émile zola paris');
  await page.getByRole('list', { name: 'Résultats de la recherche' }).getByRole('button').first().click();
  await search.fill('');
  await page.waitForTimeout(600);
  await takeLong();
  const map = page.locator('.leaflet-container').first();
  const box = (await map.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const counts: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.mouse.wheel(0, 300);
    await page.waitForTimeout(500);
    counts.push(`${await page.locator('.leaflet-marker-icon').count()}`);
  }
  console.log(`  marqueurs en dézoomant : ${counts.join(' → ')}`);
  for (let i = 0; i < 2; i++) {
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(500);
  }
  for (let i = 0; i < 6; i++) {
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 8 });
    await page.mouse.up();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(300);
  }
  const panTasks = await takeLong();
  console.log(
    `Carte du profil, 8 zooms + 6 déplacements : tâche la plus longue ${Math.round(Math.max(0, ...panTasks))} ms, ${panTasks.length} tâches > 50 ms`,
  );
  const markers = await page.locator('.leaflet-marker-icon').count();
  console.log(`  marqueurs affichés à la fin : ${markers}`);

  await page.goto(`${address}/map`);
  await page.getByText(/établissements? affichés? sur la carte|dans la zone affichée/).waitFor({ timeout: 120_000 });
  await page.waitForTimeout(800);
  const mapTasks = await takeLong();
  console.log(
    `/map (admin, vue France, 500 non vérifiés au plus) : ${await page.locator('.leaflet-marker-icon').count()} marqueurs, tâche la plus longue ${Math.round(Math.max(0, ...mapTasks))} ms`,
  );
} finally {
  await browser.close();
  await app.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
