/**
 * The main thread's work while a page loads on a phone's CPU: Chromium's trace of each page of the production
 * build at 4× CPU slowdown (`Emulation.setCPUThrottlingRate`, Lighthouse's mobile factor), network not throttled,
 * a 412 × 823 phone screen, a fresh profile per run (decision 123). README.md beside the folder.
 *
 *   npm ci --prefix bench/first-load/lighthouse
 *   npm run build
 *   LH_BASELINE=<another checkout, built> node --import tsx bench/first-load/lighthouse/main-thread.ts
 *
 * Lighthouse's blocking time multiplies what one run observed by 4; on a 2-core machine shared with the browser's
 * other processes, the same code gave 1.4 to 6.1 s in one series. The work itself varies less: each run here
 * counts, on the page's main thread, from the navigation until the network has been quiet for 2 s,
 *   - `long`: the sum over tasks of their time beyond 50 ms (Lighthouse's blocking time, without its window);
 *   - `busy`: the time of all tasks, and the part of it in script (`script`) and in style and layout (`layout`);
 *   - the first and the largest paint the browser reported.
 * MT_RUNS (default 7) runs per page and build, alternated as in lighthouse.ts; LH_PAGES limits the pages. The
 * minimum of the runs is the least disturbed measure of the work; medians are printed beside it. Every run goes to
 * bench/first-load/results/main-thread-<time>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { builds, chosen, freshBrowser, root, signIn, startServer, type Build, type PageToMeasure } from './demo-builds.js';

const runs = Number(process.env.MT_RUNS ?? 7);
const slowdown = 4;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { isLoadingMainFrame?: boolean } };
}

interface Work {
  long: number;
  busy: number;
  script: number;
  layout: number;
  fcp: number;
  lcp: number;
}
const fields = ['long', 'busy', 'script', 'layout', 'fcp', 'lcp'] as const;

const SCRIPT = new Set(['EvaluateScript', 'v8.evaluateModule', 'v8.compile', 'v8.compileModule', 'FunctionCall', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'EventDispatch']);
const LAYOUT = new Set(['UpdateLayoutTree', 'Layout', 'ParseAuthorStyleSheet', 'PrePaint', 'Paint', 'Layerize']);

/** Time covered by the events of a kind inside a task, nested ones counted once. */
function covered(events: TraceEvent[], kinds: Set<string>): number {
  let total = 0;
  let end = -Infinity;
  for (const e of events.filter((x) => kinds.has(x.name) && x.dur !== undefined).sort((a, b) => a.ts - b.ts)) {
    const stop = e.ts + e.dur!;
    if (stop <= end) continue;
    total += stop - Math.max(e.ts, end);
    end = stop;
  }
  return total;
}

async function measure(build: Build, page: PageToMeasure): Promise<Work> {
  const { browser, close } = await freshBrowser();
  try {
    const tab = await browser.newPage();
    await tab.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    if (page.pupil) await signIn(tab, build);
    const cdp = await tab.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
    await tab.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading', 'blink.user_timing'] });
    await tab.goto(`http://localhost:${build.port}${page.path(build)}`, { waitUntil: 'networkidle0', timeout: 60_000 });
    const trace = await tab.tracing.stop();
    const events = (JSON.parse(Buffer.from(trace!).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    // The page's own navigation: the last of the main frame's in the trace (the tracing starts after signIn's). Its
    // main thread: the renderer's main thread that worked most after it (a navigation may change processes).
    const start = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame).pop();
    if (!start) throw new Error(`${page.name}: no navigation in the trace`);
    const renderers = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    const worked = (t: TraceEvent) => events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === 'RunTask' && e.ts >= start.ts).reduce((sum, e) => sum + (e.dur ?? 0), 0);
    const thread = renderers.sort((a, b) => worked(b) - worked(a))[0];
    const main = events.filter((e) => e.pid === thread.pid && e.tid === thread.tid);
    const paint = (name: string) => {
      const found = events.filter((e) => e.name === name && e.ts >= start.ts);
      return found.length ? (found[found.length - 1].ts - start.ts) / 1000 : NaN;
    };
    const tasks = main.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts >= start.ts);
    let long = 0;
    let busy = 0;
    let script = 0;
    let layout = 0;
    for (const task of tasks) {
      const inside = main.filter((e) => e.ph === 'X' && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur! && e !== task);
      busy += task.dur!;
      long += Math.max(0, task.dur! - 50_000);
      script += covered(inside, SCRIPT);
      layout += covered(inside, LAYOUT);
    }
    return { long: long / 1000, busy: busy / 1000, script: script / 1000, layout: layout / 1000, fcp: paint('firstContentfulPaint'), lcp: paint('largestContentfulPaint::Candidate') };
  } finally {
    await close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const line = (w: Record<(typeof fields)[number], number>) => fields.map((f) => `${f} ${Math.round(w[f])}`).join('  ');

async function main() {
  for (const b of builds) await startServer(b);
  const all: ({ build: string; page: string; round: number } & Work)[] = [];
  try {
    for (let round = 1; round <= runs; round++) {
      for (const page of chosen) {
        const order = round % 2 ? builds : [...builds].reverse();
        for (const b of order) {
          const work = await measure(b, page);
          all.push({ build: b.name, page: page.name, round, ...work });
          console.log(`${page.name.padEnd(8)} ${b.name.padEnd(8)} #${round}  ${line(work)}`);
        }
      }
    }
  } finally {
    for (const b of builds) b.server?.kill('SIGTERM');
  }
  console.log(`\nAt ${slowdown}× CPU, in ms: minimum (median) of ${runs} runs`);
  const summary = [];
  for (const page of chosen) {
    for (const b of builds) {
      const mine = all.filter((r) => r.page === page.name && r.build === b.name);
      const min = Object.fromEntries(fields.map((f) => [f, Math.min(...mine.map((r) => r[f]))])) as unknown as Work;
      const med = Object.fromEntries(fields.map((f) => [f, median(mine.map((r) => r[f]))])) as unknown as Work;
      summary.push({ page: page.name, build: b.name, min, median: med });
      console.log(`${page.name.padEnd(8)} ${b.name.padEnd(8)} ${fields.map((f) => `${f} ${Math.round(min[f])} (${Math.round(med[f])})`).join('  ')}`);
    }
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const results = path.join(root, 'bench/first-load/results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, `main-thread-${stamp}.json`), `${JSON.stringify({ node: process.version, slowdown, runs: all, summary }, null, 2)}\n`);
  console.log(`\nRuns: bench/first-load/results/main-thread-${stamp}.json`);
}

await main();
