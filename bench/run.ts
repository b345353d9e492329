/**
 * `npm run bench [scenario]`: load scenarios against real PostgreSQL (see bench/README.md).
 * Scenarios: autosave (default) — 2,000 pupils start a timed chapter and autosave.
 */
import { runAutosaveBench } from './sessions/autosave.js';

const scenarios: Record<string, () => Promise<void>> = {
  autosave: runAutosaveBench,
};

const name = process.argv[2] ?? 'autosave';
const scenario = scenarios[name];
if (!scenario) {
  console.error(`Scénario inconnu : ${name}. Disponibles : ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}
const started = Date.now();
await scenario();
console.log(`\nTotal ${((Date.now() - started) / 1000).toFixed(1)} s`);
