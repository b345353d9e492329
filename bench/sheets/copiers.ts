/**
 * `node --import tsx bench/sheets/copiers.ts`: reading scans in every encoding a copier writes
 * (bench/sheets/README.md, decision 57). For each encoding of copier-scan.ts and each scan
 * resolution, a scan of sheets turned 0/90/180/270°, skewed, noisy (ImageMagick) is read as the
 * decode job reads it; CPU time counts this process and the renderer processes it waited for
 * (/proc/self/stat cutime + cstime), so pages/s per core = pages ÷ CPU seconds. Then a noisy set
 * (heavy noise and blur, pen strokes, torn codes) gives the share read right / wrong / unread.
 * Knobs: BENCH_DPIS (150,200,300), BENCH_PAGES (8), BENCH_NOISY_PAGES (12), BENCH_ENCODINGS (all).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { COPIER_ENCODINGS, copierScan, type CopierEncoding } from '../../server/test/fixtures/copier-scan.js';
import type { Soiling } from '../../server/test/fixtures/fake-scan.js';
import { renderAnswerSheets } from '../../server/src/sheets/render.js';
import { readerOptions, readScan, type PageReading } from '../../server/src/sheets/scan-reader.js';

const env = process.env;
const secret = 'bench-secret-bench-secret-bench';
const chapter = { id: randomUUID(), title: 'Coupe papier — banc des copieurs' };
const exercises = ['Géométrie', 'Arithmétique'].map((title) => ({ id: randomUUID(), title }));
const pupils = Array.from({ length: 6 }, (_, i) => ({ id: randomUUID(), firstName: 'Sophie', lastName: `Germain-${i + 1}` }));
const PER_PUPIL = 1 + exercises.length * 2;
const DPIS = (env.BENCH_DPIS ?? '150,200,300').split(',').map(Number);
const PAGES = Number(env.BENCH_PAGES ?? 8);
const NOISY = Number(env.BENCH_NOISY_PAGES ?? 12);
const ENCODINGS = (env.BENCH_ENCODINGS?.split(',') ?? COPIER_ENCODINGS) as CopierEncoding[];
const TICK = 100; // clock ticks a second (getconf CLK_TCK)

/** CPU seconds of this process and of its waited-for children (the pdftoppm renders). */
function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'latin1').split(') ')[1].split(' ');
  // After the command: state is field 3; cutime and cstime are fields 16 and 17.
  const children = (Number(fields[13]) + Number(fields[14])) / TICK;
  return (user + system) / 1e6 + children;
}

const turns = [0, 90, 180, 270] as const;
let seed = 11;
const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;

function expectedOf(page: number) {
  const k = page % PER_PUPIL;
  return {
    userId: pupils[Math.floor(page / PER_PUPIL)].id,
    exerciseId: k === 0 ? null : exercises[Math.floor((k - 1) / 2)].id,
    page: k === 0 ? 0 : ((k - 1) % 2) + 1,
  };
}

function score(readings: PageReading[], pages: Soiling[]) {
  let right = 0;
  let wrong = 0;
  let unread = 0;
  for (const r of readings) {
    const soil = pages[r.page];
    if (r.status !== 'read') {
      unread++;
      continue;
    }
    const e = expectedOf(soil.page);
    const ok =
      r.code?.userId === e.userId &&
      r.code.exerciseId === e.exerciseId &&
      r.code.page === e.page &&
      r.rotation === (360 - (soil.turn ?? 0)) % 360;
    if (ok) right++;
    else wrong++;
  }
  return { right, wrong, unread };
}

async function main() {
  const sheets = await renderAnswerSheets({ secret, chapter, centreName: 'Lycée du banc', exercises, pupils, spare: 1 });
  console.log(`| encoding | dpi | MB | pages | CPU ms/page | pages/s per core | wall ms/page | right / wrong / unread |`);
  console.log(`|---|---|---|---|---|---|---|---|`);
  for (const encoding of ENCODINGS) {
    for (const dpi of DPIS) {
      const pages: Soiling[] = Array.from({ length: PAGES }, (_, i) => ({
        page: i,
        turn: turns[i % 4],
        skew: (random() - 0.5) * 4,
        noise: 0.15,
      }));
      const scan = await copierScan(sheets, pages, encoding, { dpi, noise: 0.3, blur: 0.4, seed: dpi });
      const cpu0 = cpuSeconds();
      const t0 = performance.now();
      const readings = await readScan(scan, secret, chapter.id);
      const wall = performance.now() - t0;
      const cpu = cpuSeconds() - cpu0;
      const s = score(readings, pages);
      const label = encoding === 'vector' ? `${encoding} (rendered at 150)` : encoding;
      console.log(
        `| ${label} | ${encoding === 'vector' ? '—' : dpi} | ${(scan.length / 1e6).toFixed(2)} | ${PAGES} | ${Math.round((cpu * 1000) / PAGES)} | ${(PAGES / cpu).toFixed(1)} | ${Math.round(wall / PAGES)} | ${s.right} / ${s.wrong} / ${s.unread} |`,
      );
      if (encoding === 'vector') break;
    }
  }
  if (env.BENCH_RENDER_ALL !== '0' && ENCODINGS.includes('dct')) {
    readerOptions.embeddedFirst = false;
    const pages: Soiling[] = Array.from({ length: PAGES }, (_, i) => ({ page: i, turn: turns[i % 4], noise: 0.15 }));
    const scan = await copierScan(sheets, pages, 'dct', { dpi: 200, noise: 0.3, blur: 0.4 });
    const cpu0 = cpuSeconds();
    const readings = await readScan(scan, secret, chapter.id);
    const cpu = cpuSeconds() - cpu0;
    console.log(
      `\ndct at 200 dpi with every page rendered (embedded picture not tried first): ${Math.round((cpu * 1000) / PAGES)} ms CPU a page, ${JSON.stringify(score(readings, pages))}`,
    );
    readerOptions.embeddedFirst = true;
  }

  console.log(
    `\n## Noisy set: ${NOISY} pages an encoding at 200 dpi, heavy noise (1.0) and blur (1.0), pen strokes, one code in six torn off`,
  );
  console.log(`| encoding | right | wrong | unread (torn) |`);
  console.log(`|---|---|---|---|`);
  const total = { right: 0, wrong: 0, unread: 0, pages: 0 };
  for (const encoding of ENCODINGS) {
    const pages: Soiling[] = Array.from({ length: NOISY }, (_, i) => ({
      page: i % (pupils.length * PER_PUPIL),
      turn: turns[(i + 1) % 4],
      skew: (random() - 0.5) * 5,
      noise: 0.3,
      scribbles: i % 3 === 1,
      torn: i % 6 === 5,
    }));
    const scan = await copierScan(sheets, pages, encoding, { dpi: 200, noise: 1.0, blur: 1.0, seed: 99 });
    const s = score(await readScan(scan, secret, chapter.id), pages);
    const torn = pages.filter((p) => p.torn).length;
    total.right += s.right;
    total.wrong += s.wrong;
    total.unread += s.unread;
    total.pages += NOISY;
    console.log(`| ${encoding} | ${s.right} | ${s.wrong} | ${s.unread} (${torn}) |`);
  }
  const pct = (n: number) => `${((100 * n) / total.pages).toFixed(1)} %`;
  console.log(`| all (${total.pages} pages) | ${pct(total.right)} | ${pct(total.wrong)} | ${pct(total.unread)} |`);
}

await main();
