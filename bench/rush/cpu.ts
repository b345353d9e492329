/**
 * CPU time of processes from /proc (Linux), sampled every 250 ms so that processes that end
 * during a phase (pgbench's backends) still count: splits a phase's CPU between the server,
 * PostgreSQL's backends of the bench database, the rest of PostgreSQL, this driver and the rest.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

const TICK = 100; // USER_HZ on Linux

function ticksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return undefined;
  }
}

function machineTicks(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - (f[4] ?? 0), total };
}

export class CpuMeter {
  private last = new Map<number, number>();
  private kind = new Map<number, 'pgBench' | 'pgOther'>();
  private totals = { server: 0, pgBench: 0, pgOther: 0, driver: 0, client: 0 };
  /** Load generators other than this process (autocannon, pgbench), added once known. */
  clientPids: number[] = [];
  private timer: NodeJS.Timeout;
  private start = performance.now();
  private machine0 = machineTicks();

  constructor(
    private serverPids: () => number[],
    private dbName: string,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 250);
  }

  private add(pid: number, bucket: keyof CpuMeter['totals']) {
    const t = ticksOf(pid);
    if (t === undefined) return;
    const prev = this.last.get(pid);
    this.last.set(pid, t);
    if (prev !== undefined) this.totals[bucket] += t - prev;
  }

  private sample() {
    for (const pid of this.serverPids()) this.add(pid, 'server');
    this.add(process.pid, 'driver');
    for (const pid of this.clientPids) this.add(pid, 'client');
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      let kind = this.kind.get(pid);
      if (!kind) {
        try {
          if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() !== 'postgres') continue;
          const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
          kind = cmd.includes(` ${this.dbName} `) ? 'pgBench' : 'pgOther';
          this.kind.set(pid, kind);
        } catch {
          continue;
        }
      }
      this.add(pid, kind);
    }
  }

  /** Percent of ONE core per part since the meter started (200 = both cores of this machine). */
  stop() {
    this.sample();
    clearInterval(this.timer);
    const seconds = (performance.now() - this.start) / 1000;
    const pct = (ticks: number) => Math.round((ticks / TICK / seconds) * 1000) / 10;
    const m = machineTicks();
    const machinePct =
      Math.round(((m.busy - this.machine0.busy) / Math.max(1, m.total - this.machine0.total)) * os.cpus().length * 1000) / 10;
    const t = this.totals;
    const known = pct(t.server + t.pgBench + t.pgOther + t.driver + t.client);
    return {
      seconds: Math.round(seconds * 10) / 10,
      serverPct: pct(this.totals.server),
      /** Backends connected to the bench database. */
      pgBenchPct: pct(this.totals.pgBench),
      /** The rest of PostgreSQL: WAL writer, checkpointer, and other databases' backends (other work on the machine). */
      pgOtherPct: pct(this.totals.pgOther),
      driverPct: pct(this.totals.driver),
      /** autocannon or pgbench. */
      clientPct: pct(this.totals.client),
      /** Everything else on the machine (other people's work). */
      restPct: Math.round((machinePct - known) * 10) / 10,
      machinePct,
      loadAvg: os.loadavg().map((l) => Math.round(l * 10) / 10),
      /** CPU seconds, to divide by the operations done: the cost of one operation whatever else runs. */
      cpuSeconds: { server: t.server / TICK, pg: t.pgBench / TICK, driver: t.driver / TICK, client: t.client / TICK },
    };
  }
}
export type CpuReport = ReturnType<CpuMeter['stop']>;
