/**
 * Decision 162: a school's ZIP of corrected copies, 1,000 copies (2 pages, 20 marks each), through the same path as
 * GET /results/{id}/copies.zip (batches drawn in the PDF worker pool, two in flight, streamed ZIP), while a health
 * route on the same event loop is asked every 20 ms: its p99 must stay low (the drawing stays in the worker threads).
 *
 *   node --import tsx bench/returned/run.ts [copies=1000]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument } from '@cantoo/pdf-lib';
import type { Annotation } from '@olympe/contract';
import { closePdfPool } from '../../server/src/pdf/pdf-pool.js';
import { zipCopies, type Entry } from '../../server/src/results/copies-zip.js';

const copies = Number(process.argv[2] ?? 1_000);
const BATCH = 8;

const doc = await PDFDocument.create();
for (let i = 0; i < 2; i++) doc.addPage([595.28, 841.89]);
const pdf = await doc.save();
const annotations: Annotation[] = Array.from({ length: 20 }, (_, k): Annotation => {
  const page = k % 2;
  if (k % 4 === 0)
    return {
      id: `i${k}`,
      page,
      kind: 'ink',
      color: 'red',
      points: Array.from({ length: 200 }, (_, j) => [0.1 + j / 300, 0.1 + k / 25] as [number, number]),
    };
  if (k % 4 === 1)
    return { id: `n${k}`, page, kind: 'note', x: 0.1, y: k / 25, text: 'Hypothèse non justifiée : reprendre la récurrence.' };
  if (k % 4 === 2) return { id: `b${k}`, page, kind: 'box', x: 0.2, y: k / 25, w: 0.3, h: 0.05 };
  return { id: `t${k}`, page, kind: 'tick', x: 0.8, y: k / 25 };
});

async function* batches(): AsyncGenerator<Entry[]> {
  for (let i = 0; i < copies; i += BATCH) {
    yield Array.from({ length: Math.min(BATCH, copies - i) }, (_, j) => ({
      name: `ÉLÈVE ${i + j} Prénom/01 Preuve.pdf`,
      data: {
        pdf: new Uint8Array(pdf),
        chapterTitle: 'Coupe Animath — Tour 1',
        exerciseTitle: 'Preuve',
        pupil: `Prénom ÉLÈVE ${i + j}`,
        grade: '7\u00a0/\u00a010',
        comment: 'Bonne idée, rédaction à reprendre.',
        correctors: [],
        annotations,
        items: {},
      },
    }));
  }
}

// The health route, on this event loop, asked every 20 ms while the archive is made.
const server = http.createServer((_req, res) => res.end('{"status":"ok"}'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`;
const latencies: number[] = [];
let running = true;
const prober = (async () => {
  while (running) {
    const t0 = performance.now();
    await (await fetch(url)).text();
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
})();

const started = performance.now();
let bytes = 0;
let last: Buffer | null = null;
for await (const chunk of zipCopies(batches())) {
  bytes += chunk.length;
  if (chunk.length > 0) last = chunk;
}
const seconds = (performance.now() - started) / 1000;
running = false;
await prober;
server.close();
await closePdfPool();

const count = last!.readUInt16LE(last!.length - 22 + 10);
if (count !== copies) throw new Error(`the archive lists ${count} copies, not ${copies}`);
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
console.log(
  `${copies} corrected copies: ${seconds.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB ZIP; ` +
    `/api/health (${latencies.length} calls) p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms`,
);
