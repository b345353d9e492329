/**
 * Decision 14, in the browser (Debian's Chromium, built app) on PostgreSQL: /grader with
 * 10,000 pupils × 12 exercises. Time to the first painted row, long tasks while loading, while
 * scrolling the virtual table end to end, and per keystroke in the search box.
 *
 *   npm run build && node --import tsx bench/grading/browser.ts
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/client.js';
import { benchUrl, createBenchDb, dropBenchDb } from './db.js';
import { seedGradingBench } from './seed.js';

const PUPILS = Number(process.env.PUPILS ?? 10_000);
await createBenchDb();
const database = await openDatabase({ databaseUrl: benchUrl() });
await database.migrate();
const bench = await seedGradingBench(database.db, PUPILS);
const config = loadConfig({
  DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'olympe-bench-grading-web-')),
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
  LOG_LEVEL: 'silent',
});
const app = await buildApp({ config, database, logger: false });
const token = await app.deps.signer.sign({ userId: bench.adminId, tokenVersion: 0 });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const max = (xs: number[]) => Math.round(Math.max(0, ...xs));
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(address);
  await page.evaluate((t) => localStorage.setItem('jwt', t), token);
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((l) => w.__longTasks.push(...l.getEntries().map((e) => e.duration))).observe({
      type: 'longtask',
      buffered: true,
    });
  });
  const takeLong = () => page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));
  const region = page.getByRole('region', { name: /^Correction : / });

  for (let run = 1; run <= 3; run++) {
    const t0 = Date.now();
    await page.goto(`${address}/grader/${bench.chapterId}`);
    await region.getByRole('row').nth(5).waitFor({ timeout: 120_000 });
    const firstPaint = Date.now() - t0;
    await page.waitForTimeout(500);
    const load = await takeLong();
    const domRows = await region.getByRole('row').count();
    console.log(
      `Run ${run}: /grader navigation → first rows painted ${firstPaint} ms; longest task ${max(load)} ms; rows in the DOM ${domRows}`,
    );
  }

  // Scroll from top to bottom in 40 steps, one per animation frame pair; frame gaps measured in the page.
  const scroll = await page.evaluate(async () => {
    const el = document.querySelector('[role="region"][aria-label^="Correction"]') as HTMLElement;
    const gaps: number[] = [];
    let last = performance.now();
    const steps = 40;
    for (let i = 1; i <= steps; i++) {
      el.scrollTop = (el.scrollHeight * i) / steps;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    return { gaps, height: el.scrollHeight };
  });
  const gaps = scroll.gaps.sort((a, b) => a - b);
  const scrollTasks = await takeLong();
  console.log(
    `Scroll end to end (${scroll.height}px, 40 jumps): per jump (2 frames) median ${gaps[20].toFixed(0)} ms, max ${gaps[39].toFixed(0)} ms; long tasks ${scrollTasks.length}, longest ${max(scrollTasks)} ms`,
  );

  const search = page.getByLabel('Rechercher par nom ou prénom');
  const perKey: number[] = [];
  for (const ch of 'lefevre 12') {
    const t = Date.now();
    await search.pressSequentially(ch);
    await page.waitForTimeout(200);
    perKey.push(...(await takeLong()));
    void t;
  }
  const shown = await page.getByText(/\d+\/\d+ élèves/).textContent();
  console.log(`Search "lefevre 12" typed key by key: long tasks ${perKey.length}, longest ${max(perKey)} ms; counter ${shown}`);
} finally {
  await browser.close();
  await app.close();
  await database.close();
  if (!process.env.KEEP) await dropBenchDb();
}
