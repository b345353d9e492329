/**
 * The benches' way of watching a server's event loop: GET /api/health every few milliseconds while
 * some work runs; a stalled loop shows up as a slow answer (bench/sheets/latency.ts, bench/pdf-bombs).
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 0) => Math.round(n * 10 ** d) / 10 ** d;

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/** Count, median, 99th percentile and worst of latencies in ms. */
export function latencyStats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: round(percentile(s, 50), 1), p99: round(percentile(s, 99), 1), max: round(s.at(-1) ?? 0, 1) };
}

export interface HealthPoller {
  /** Latencies so far (ms), one per poll. */
  readonly latencies: number[];
  /** Polls that failed or answered non-2xx. */
  readonly failed: number;
  /** Stops after the poll in flight. */
  stop(): Promise<void>;
}

/** Asks `${base}/api/health` every `everyMs` until stopped; `afterPoll` runs after each (e.g. an RSS sample). */
export function pollHealth(base: string, everyMs = 20, afterPoll?: () => void): HealthPoller {
  let done = false;
  const latencies: number[] = [];
  let failed = 0;
  const loop = (async () => {
    while (!done) {
      const started = performance.now();
      try {
        const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (!res.ok) failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - started);
      afterPoll?.();
      await sleep(everyMs);
    }
  })();
  return {
    latencies,
    get failed() {
      return failed;
    },
    async stop() {
      done = true;
      await loop;
    },
  };
}
