/** Prints the markdown tables of bench/rush/README.md from a result JSON of run.ts. */
import { readFileSync } from 'node:fs';

const r = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const line = (cells: unknown[]) => console.log(`| ${cells.join(' | ')} |`);
console.log(
  `Run ${r.date}, server ↔ PostgreSQL over ${r.dbHost}, load average at start ${r.loadAtStart.join(' ')}, at end ${r.loadAtEnd.join(' ')}\n`,
);
if (r.hello)
  console.log(
    `Limits: hello world ${Math.round(r.hello.requestsPerSecond)} req/s (node ${r.hello.cost.nodeMs} ms CPU/request, load ${r.hello.cpu.loadAvg[0]}); pgbench upsert ${Object.entries<any>(
      r.pgbench,
    )
      .map(([k, v]) => `${v.tps} tps ${k} (PostgreSQL ${v.cost.pgMs} ms CPU/tx)`)
      .join(', ')}\n`,
  );
for (const phase of ['storm', 'rush', 'saturated']) {
  const p = r[phase];
  if (!p) continue;
  console.log(
    `**${phase}**: ${p.seconds} s, ${p.requests} requests, ${p.requestsPerSecond} req/s; CPU % of one core: node ${p.cpu.serverPct}, PostgreSQL (bench db) ${p.cpu.pgBenchPct}, driver ${p.cpu.driverPct}, other work ${p.cpu.restPct}; load ${p.cpu.loadAvg.join(' ')}${p.cost ? `; CPU per save: node ${p.cost.nodeMs} ms, PostgreSQL ${p.cost.pgMs} ms` : ''}\n`,
  );
  line(['route', 'count', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', '5xx', 'failed']);
  line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']);
  for (const [name, s] of Object.entries<any>(p.routes)) {
    if (name === 'warm') continue;
    line([name, s.count, s.perSecond, s.p50, s.p95, s.p99, s.max, s.status5xx, s.failed]);
  }
  console.log('');
}
console.log(
  `Check: ${JSON.stringify(r.check)}\nRatios (measured): ${JSON.stringify(r.ratios)}\nRatios (CPU cost): ${JSON.stringify(r.costRatios)}\nAims: ${JSON.stringify(r.aims)}`,
);
