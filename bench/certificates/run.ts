/**
 * Decision 72: an admin's ZIP of a chapter's certificates, 10,000 pupils, must be ready in under 60 s
 * on this machine. Renders them through the same path as GET /results/{id}/certificates.zip (PDF
 * worker pool, batches, streamed ZIP) and checks the archive's end record; the event loop's
 * longest stall is measured alongside (the work must stay in the worker threads).
 *
 *   node --import tsx bench/certificates/run.ts [pupils=10000]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { closePdfPool } from '../../server/src/pdf/pdf-pool.js';
import { zipCertificates } from '../../server/src/results/certificates.js';

const pupils = Number(process.argv[2] ?? 10_000);
const entries = Array.from({ length: pupils }, (_, i) => ({
  name: `${String(i + 1).padStart(5, '0')} Élève${i} Prénom.pdf`,
  data: {
    firstName: `Prénom${i}`,
    lastName: `Élève-Dupré ${i}`,
    institution: 'Lycée Évariste Galois, Bourg-la-Reine',
    chapterTitle: 'Coupe Animath — Tour 1',
    total: `${(i % 41) / 2}\u00a0/\u00a020`,
    qualification: i % 3 === 0 ? 'Qualifié(e) pour le tour suivant' : null,
    issuedOn: '27 novembre 2026',
  },
}));

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const started = performance.now();
let bytes = 0;
let last: Buffer | null = null;
for await (const chunk of zipCertificates(entries)) {
  bytes += chunk.length;
  last = chunk;
}
const seconds = (performance.now() - started) / 1000;
loop.disable();
await closePdfPool();

const count = last!.readUInt16LE(last!.length - 22 + 10);
if (count !== pupils) throw new Error(`the archive lists ${count} certificates, not ${pupils}`);
console.log(
  `${pupils} certificates: ${seconds.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB ZIP, ` +
    `event loop max stall ${(loop.max / 1e6).toFixed(0)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms)`,
);
if (seconds >= 60) {
  console.error('Over the 60 s budget.');
  process.exitCode = 1;
}
