/**
 * Decision 72: an admin's ZIP of a chapter's certificates, 10,000 pupils, must be ready in under 60 s
 * on this machine. Renders them through the same path as GET /results/{id}/certificates.zip (PDF
 * worker pool, batches, streamed ZIP) and checks the archive's end record; the event loop's
 * longest stall and the process's peak RSS are measured alongside (the work must stay in the worker
 * threads, the archive must not be held whole). A second argument writes the archive to that file
 * (to check it with `unzip -t`).
 *
 *   node --import tsx bench/certificates/run.ts [pupils=10000] [out.zip]
 */
import { createWriteStream } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { closePdfPool } from '../../server/src/pdf/pdf-pool.js';
import { zipCertificates } from '../../server/src/results/certificates.js';

const pupils = Number(process.argv[2] ?? 10_000);
const out = process.argv[3] ? createWriteStream(process.argv[3]) : null;
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
  if (out && !out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}
if (out) await new Promise<void>((resolve) => out.end(() => resolve()));
const seconds = (performance.now() - started) / 1000;
loop.disable();
await closePdfPool();

const count = last!.readUInt16LE(last!.length - 22 + 10);
if (count !== pupils) throw new Error(`the archive lists ${count} certificates, not ${pupils}`);
console.log(
  `${pupils} certificates: ${seconds.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB ZIP, ` +
    `event loop max stall ${(loop.max / 1e6).toFixed(0)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms), ` +
    `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
if (seconds >= 60) {
  console.error('Over the 60 s budget.');
  process.exitCode = 1;
}
