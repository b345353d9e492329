/**
 * `node --import tsx bench/sheets/sheets.ts`: answer sheets with QR codes (bench/sheets/README.md).
 * 1. Generation: the PDF of 100 pupils × 3 PDF exercises × (1 + 2 spare) pages, timed.
 * 2. Reading: a 100-page scan (10 pupils' sheets turned 0/90/180/270°, skewed up to ±2.5°, noisy,
 *    some scribbled, 5 codes torn off) printed to JPEG by pdftoppm at each DPI, then read page by
 *    page as the decode job does; every read code is checked against what was printed.
 * Needs pdftoppm (Debian package poppler-utils). Knobs: BENCH_DPIS (default "150,200,300").
 */
import { randomUUID } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';
import { fakeScan, type Soiling } from '../../server/test/fixtures/fake-scan.js';
import { renderAnswerSheets, type SheetInput } from '../../server/src/sheets/render.js';
import { readScan } from '../../server/src/sheets/scan-reader.js';

const secret = 'bench-secret-bench-secret-bench';
const chapter = { id: randomUUID(), title: 'Olympiades de mathématiques 2026 — épreuve papier' };
const exercises = ['Géométrie', 'Arithmétique', 'Combinatoire'].map((title) => ({ id: randomUUID(), title }));
const pupilsOf = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: randomUUID(), firstName: 'Émilie', lastName: `Du Châtelet-${i + 1}` }));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * Wall time and this process's CPU time (user + system) of a step: on a shared machine the CPU
 * time is what the step costs, the wall time what it took with the others' load.
 */
async function timed<T>(step: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await step();
  const wall = performance.now() - t0;
  const { user, system } = process.cpuUsage(cpu0);
  return { value, wall, cpu: (user + system) / 1000 };
}
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function benchGeneration() {
  const input: SheetInput = { secret, chapter, centreName: 'Lycée Henri-Poincaré', exercises, pupils: pupilsOf(100), spare: 2 };
  const runs = [];
  for (let i = 0; i < 6; i++) runs.push(await timed(() => renderAnswerSheets(input)));
  const pdf = runs[0].value;
  const pages = (await PDFDocument.load(pdf)).getPageCount();
  const warm = runs.slice(1);
  console.log('\n## Generation: 100 pupils × 3 exercises × (1 + 2 spare) pages, plus a cover each');
  console.log(`pages ${pages}, PDF ${(pdf.length / 1e6).toFixed(2)} MB`);
  console.log(`first run of the process: wall ${ms(runs[0].wall)}, CPU ${ms(runs[0].cpu)}`);
  console.log(`next 5 runs, median: wall ${ms(median(warm.map((r) => r.wall)))}, CPU ${ms(median(warm.map((r) => r.cpu)))}`);
}

async function benchReading(dpi: number) {
  const pupils = pupilsOf(10);
  const sheets = await renderAnswerSheets({ secret, chapter, centreName: null, exercises, pupils, spare: 2 });
  const perPupil = 1 + exercises.length * 3;
  const turns = [0, 90, 180, 270] as const;
  let seed = 7;
  const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pages: Soiling[] = Array.from({ length: pupils.length * perPupil }, (_, i) => ({
    page: i,
    turn: turns[i % 4],
    skew: (random() - 0.5) * 5,
    noise: 0.2,
    torn: i % 20 === 13,
    scribbles: i % 7 === 3,
  }));
  let t = performance.now();
  const scan = await fakeScan(sheets, pages, { dpi });
  const makeMs = performance.now() - t;

  const read = await timed(() => readScan(scan, secret, chapter.id));
  const readings = read.value;

  let right = 0;
  let wrong = 0;
  for (const r of readings) {
    if (r.status !== 'read') continue;
    const i = r.page;
    const k = i % perPupil;
    const expected = {
      userId: pupils[Math.floor(i / perPupil)].id,
      exerciseId: k === 0 ? null : exercises[Math.floor((k - 1) / 3)].id,
      page: k === 0 ? 0 : ((k - 1) % 3) + 1,
    };
    const ok =
      r.code?.userId === expected.userId &&
      r.code.exerciseId === expected.exerciseId &&
      r.code.page === expected.page &&
      r.rotation === (360 - pages[i].turn!) % 360;
    if (ok) right++;
    else wrong++;
  }
  const torn = pages.filter((p) => p.torn).length;
  const readable = readings.length - torn;
  const unreadTorn = readings.filter((r) => pages[r.page].torn && r.status === 'unreadable').length;
  console.log(
    `\n## Reading a ${readings.length}-page scan at ${dpi} dpi (JPEG q75, ${(scan.length / 1e6).toFixed(1)} MB; made in ${(makeMs / 1000).toFixed(1)} s)`,
  );
  console.log(`pages with a code: ${readable}; read right ${right} (${((100 * right) / readable).toFixed(1)} %), read wrong ${wrong}`);
  console.log(`torn codes left to manual sorting: ${unreadTorn} of ${torn}`);
  console.log(
    `per page: wall ${ms(read.wall / readings.length)}, CPU ${ms(read.cpu / readings.length)} (total wall ${(read.wall / 1000).toFixed(1)} s)`,
  );
}

await benchGeneration();
for (const dpi of (process.env.BENCH_DPIS ?? '150,200,300').split(',').map(Number)) await benchReading(dpi);
