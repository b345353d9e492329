/**
 * `npm run test:faults`: every fault scenario against real server processes and the machine's
 * PostgreSQL (and Redis); one PASS/FAIL line per scenario with its figures; exit 1 on any failure.
 * See bench/faults/README.md. `node --import tsx bench/faults/run.ts [name...]` runs some only.
 */
import { cleanupServers, installSafetyNet, secs, since, type ScenarioResult } from './harness.js';
import { killAndReplay } from './scenarios/kill-replay.js';
import { postgresStop } from './scenarios/pg-stop.js';
import { terminateBackends } from './scenarios/terminate.js';
import { gracefulStop } from './scenarios/sigterm.js';
import { twoInstances } from './scenarios/two-instances.js';

const scenarios: Record<string, () => Promise<ScenarioResult | ScenarioResult[]>> = {
  kill: killAndReplay,
  pgstop: postgresStop,
  terminate: terminateBackends,
  sigterm: gracefulStop,
  two: twoInstances,
};

installSafetyNet();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !scenarios[w]);
if (unknown.length) {
  console.error(`Unknown scenario: ${unknown.join(', ')}. Available: ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}
const t0 = performance.now();
let failed = 0;
for (const [name, run] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const started = performance.now();
  let results: ScenarioResult[];
  try {
    const r = await run();
    results = Array.isArray(r) ? r : [r];
  } catch (err) {
    results = [{ name, pass: false, figures: 'crashed', notes: [err instanceof Error ? (err.stack ?? err.message) : String(err)] }];
  }
  cleanupServers();
  for (const r of results) {
    if (!r.pass) failed++;
    console.log(`${r.pass ? 'PASS' : 'FAIL'} ${r.name} (${secs(since(started))}): ${r.figures}`);
    for (const note of r.notes) console.log(`     - ${note}`);
  }
}
console.log(`\n${failed === 0 ? 'All fault scenarios passed' : `${failed} scenario(s) failed`} in ${secs(since(t0))}`);
process.exit(failed === 0 ? 0 : 1);
