/**
 * Lighthouse mobile (13's default preset: simulated slow 4G and 4x CPU) on the home, login, profile and
 * chapter pages of the production build, in Debian's Chromium (decision 96). README.md beside the folder.
 *
 *   npm ci --prefix bench/first-load/lighthouse
 *   npm run build
 *   node --import tsx bench/first-load/lighthouse/lighthouse.ts
 *
 * LH_BASELINE=<a checkout with its own node_modules and web/dist> runs that checkout's server and build
 * beside this one and alternates the runs (A B, then B A…), so both see the same machine load.
 * LH_RUNS (default 5) runs per page and build; LH_PAGES=home,login limits the pages; LH_THROTTLING=devtools
 * throttles the network and CPU for real instead of simulating them. Each run opens a
 * fresh browser profile (no cache, no service worker); profile and chapter get the demo pupil's token in
 * localStorage first, as a pupil who logged in earlier. Medians are printed; every run is written to
 * bench/first-load/results/<time>.json (metrics) and bench/out/lighthouse/ (whole reports).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { builds, chosen, chromium, freshBrowser, root, signIn, startServer, type Build, type PageToMeasure } from './demo-builds.js';

const runs = Number(process.env.LH_RUNS ?? 5);
// `simulate` (Lighthouse's default, the figures the issue asks for) or `devtools`: the page really loaded through a
// throttled network and CPU, where what paints before the scripts run shows as it would on a phone.
const throttlingMethod = process.env.LH_THROTTLING === 'devtools' ? 'devtools' : 'simulate';
const metricIds = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
} as const;
type Metric = keyof typeof metricIds;


interface Run {
  build: string;
  page: string;
  round: number;
  score: number;
  metrics: Record<Metric, number>;
  load: number;
}




class RunFailed extends Error {}

/** One run, tried up to three times when Lighthouse reports that it could not record the page. */
async function measureOnce(build: Build, page: PageToMeasure, round: number, reports: string): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(build, page, round, reports);
    } catch (err) {
      if (!(err instanceof RunFailed) || attempt === 3) throw err;
      console.log(`${page.name} ${build.name} #${round}: ${err.message}, run again`);
    }
  }
}

async function measure(build: Build, page: PageToMeasure, round: number, reports: string): Promise<Run> {
  const base = `http://localhost:${build.port}`;
  const { browser, close } = await freshBrowser();
  try {
    const tab = await browser.newPage();
    if (page.pupil) await signIn(tab, build);
    const load = loadavg()[0];
    const result = await lighthouse(
      base + page.path(build),
      { logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: page.pupil, throttlingMethod },
      undefined,
      tab,
    );
    if (!result) throw new Error('Lighthouse returned nothing');
    const { lhr } = result;
    // A trace Lighthouse could not read (NO_NAVSTART, NO_FCP…) is not a measure: the run is tried again.
    if (lhr.runtimeError) throw new RunFailed(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    writeFileSync(path.join(reports, `${page.name}-${build.name}-${round}.json`), result.report as string);
    const metrics = Object.fromEntries(
      Object.entries(metricIds).map(([k, id]) => [k, lhr.audits[id].numericValue ?? NaN]),
    ) as Record<Metric, number>;
    return { build: build.name, page: page.name, round, score: Math.round((lhr.categories.performance.score ?? 0) * 100), metrics, load };
  } finally {
    await close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const show = (m: Metric, v: number) => (m === 'CLS' ? v.toFixed(3) : `${Math.round(v)} ms`);

async function main() {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const reports = path.join(root, 'bench/out/lighthouse', stamp);
  mkdirSync(reports, { recursive: true });
  for (const b of builds) await startServer(b);
  const all: Run[] = [];
  try {
    for (let round = 1; round <= runs; round++) {
      for (const page of chosen) {
        // Alternate which build goes first, so neither always meets a warmer or busier machine.
        const order = round % 2 ? builds : [...builds].reverse();
        for (const b of order) {
          const run = await measureOnce(b, page, round, reports);
          all.push(run);
          console.log(`${page.name.padEnd(8)} ${b.name.padEnd(8)} #${round} score ${run.score}  ${(Object.keys(metricIds) as Metric[]).map((m) => `${m} ${show(m, run.metrics[m])}`).join('  ')}  load ${run.load.toFixed(2)}`);
        }
      }
    }
  } finally {
    for (const b of builds) b.server?.kill('SIGTERM');
  }
  console.log(`\nMedians of ${runs} (load ${Math.min(...all.map((r) => r.load)).toFixed(1)}–${Math.max(...all.map((r) => r.load)).toFixed(1)}):`);
  const summary = [];
  for (const page of chosen) {
    for (const b of builds) {
      const mine = all.filter((r) => r.page === page.name && r.build === b.name);
      const row = {
        page: page.name,
        build: b.name,
        score: median(mine.map((r) => r.score)),
        ...Object.fromEntries((Object.keys(metricIds) as Metric[]).map((m) => [m, median(mine.map((r) => r.metrics[m]))])),
      } as { page: string; build: string; score: number } & Record<Metric, number>;
      summary.push(row);
      console.log(`${page.name.padEnd(8)} ${b.name.padEnd(8)} score ${row.score}  ${(Object.keys(metricIds) as Metric[]).map((m) => `${m} ${show(m, row[m])}`).join('  ')}`);
    }
  }
  const results = path.join(root, 'bench/first-load/results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, `${stamp}.json`), `${JSON.stringify({ node: process.version, chromium, runs: all, medians: summary }, null, 2)}\n`);
  console.log(`\nRuns: bench/first-load/results/${stamp}.json; reports: ${path.relative(root, reports)}/`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
