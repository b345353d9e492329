/**
 * `node --import tsx bench/sheets/stacks.ts`: stacks as they come off a copier's feeder
 * (bench/sheets/README.md, decisions 108–110), made with the real tools (copier-scan.ts: pdftoppm,
 * ImageMagick, img2pdf, tiff2pdf) and read as the decode job reads them:
 * - a shuffled stack (a dropped pile, one page in three fed upside down): pages read right / wrong
 *   / unread, and the copies put together in the printed order, with and without the page numbers
 *   of the codes (the order before decision 108 was the scan's);
 * - a duplex stack: every front followed by its back, the front showing through it;
 * - the pen-stroke set: a thick marker stroke across one of the two codes, then across both.
 * Knobs: BENCH_PUPILS (8), BENCH_DUPLEX_PUPILS (4), BENCH_STRUCK_PAGES (16).
 */
import { randomUUID } from 'node:crypto';
import { copierScan, type CopierEncoding } from '../../server/test/fixtures/copier-scan.js';
import type { Soiling } from '../../server/test/fixtures/fake-scan.js';
import { suggestionsOf } from '../../server/src/sheets/decode-job.js';
import { renderAnswerSheets } from '../../server/src/sheets/render.js';
import { readScan, type PageReading } from '../../server/src/sheets/scan-reader.js';
import { planLabel, type PrintedPage } from '../../server/src/sorting/plan.js';

const env = process.env;
const secret = 'bench-secret-bench-secret-bench';
const chapter = { id: randomUUID(), title: 'Coupe papier — banc des piles' };
const exercises = ['Géométrie', 'Arithmétique', 'Combinatoire'].map((title) => ({ id: randomUUID(), title }));
const PUPILS = Number(env.BENCH_PUPILS ?? 8);
const DUPLEX_PUPILS = Math.min(PUPILS, Number(env.BENCH_DUPLEX_PUPILS ?? 4));
const STRUCK = Number(env.BENCH_STRUCK_PAGES ?? 16);
const pupils = Array.from({ length: PUPILS }, (_, i) => ({ id: randomUUID(), firstName: 'Émilie', lastName: `Du Châtelet-${i + 1}` }));
/** Pages of each exercise (1 + 2 spare), and of a pupil: a cover, then the exercises' pages. */
const PAGES = 3;
const PER_PUPIL = 1 + exercises.length * PAGES;
const turns = [0, 90, 180, 270] as const;

let seed = 2026;
const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** What is printed on page `page` of the sheets PDF. */
function printedOn(page: number) {
  const k = page % PER_PUPIL;
  return {
    userId: pupils[Math.floor(page / PER_PUPIL)].id,
    exerciseId: k === 0 ? null : exercises[Math.floor((k - 1) / PAGES)].id,
    page: k === 0 ? 0 : ((k - 1) % PAGES) + 1,
  };
}

interface Score {
  right: number;
  wrong: number;
  unread: number;
}

/** A front is right when read with what was printed and the turn that makes it upright; a back when blank. */
function score(readings: PageReading[], pages: Soiling[]): Score {
  const s: Score = { right: 0, wrong: 0, unread: 0 };
  for (const r of readings) {
    const soil = pages[r.page];
    if (soil.back) {
      if (r.status === 'blank') s.right++;
      else if (r.status === 'read') s.wrong++;
      else s.unread++;
      continue;
    }
    if (r.status !== 'read') {
      s.unread++;
      continue;
    }
    const e = printedOn(soil.page);
    const ok =
      r.code?.userId === e.userId &&
      r.code.exerciseId === e.exerciseId &&
      r.code.page === e.page &&
      r.rotation === (360 - (soil.turn ?? 0)) % 360;
    if (ok) s.right++;
    else s.wrong++;
  }
  return s;
}

/**
 * Copies put together as labelling does (sorting/plan.ts) from the reader's suggestions: how many
 * (pupil, exercise) copies of the stack have all their pages, in the printed order.
 */
function copiesInOrder(readings: PageReading[], pages: Soiling[], usePrintedNumbers: boolean) {
  const all = { exercises: new Set(exercises.map((e) => e.id)), users: new Set(pupils.map((p) => p.id)) };
  const suggestions = suggestionsOf(readings, all);
  const printed = new Map<number, PrintedPage>();
  if (usePrintedNumbers) {
    for (const s of suggestions)
      if (s.sheetPage !== undefined) printed.set(s.pageNum, { user: s.user, exercise: s.exercises[0], sheetPage: s.sheetPage });
  }
  const plan = planLabel(suggestions, readings.length, printed);
  let inOrder = 0;
  let copies = 0;
  for (const [n, pupil] of pupils.entries()) {
    for (const [x, exercise] of exercises.entries()) {
      const expected = Array.from(
        { length: PAGES },
        (_, k) => pages.findIndex((p) => !p.back && p.page === n * PER_PUPIL + 1 + x * PAGES + k) + 1,
      );
      if (expected.some((p) => p === 0)) continue;
      copies++;
      const part = plan.parts.find((p) => p.user === pupil.id && p.exercise === exercise.id);
      if (part && part.pages.map((p) => p.pageNum).join() === expected.join()) inOrder++;
    }
  }
  return `${inOrder} of ${copies}`;
}

const pct = (n: number, total: number) => `${((100 * n) / total).toFixed(1)} %`;
const row = (name: string, s: Score, extra: string) => {
  const total = s.right + s.wrong + s.unread;
  return `| ${name} | ${total} | ${s.right} (${pct(s.right, total)}) | ${s.wrong} (${pct(s.wrong, total)}) | ${s.unread} (${pct(s.unread, total)}) | ${extra} |`;
};

async function main() {
  const sheets = await renderAnswerSheets({ secret, chapter, centreName: 'Lycée du banc', exercises, pupils, spare: PAGES - 1 });
  console.log('| stack | pages | read right | read wrong | unread | copies in printed order |');
  console.log('|---|---|---|---|---|---|');

  // A dropped pile: every page of every pupil, shuffled, one in three upside down, skewed.
  {
    const pages: Soiling[] = shuffle(Array.from({ length: PUPILS * PER_PUPIL }, (_, i) => i)).map((page, i) => ({
      page,
      turn: i % 3 === 1 ? 180 : 0,
      skew: (random() - 0.5) * 4,
      noise: 0.15,
    }));
    const scan = await copierScan(sheets, pages, 'dct', { dpi: 150, noise: 0.3, blur: 0.4, seed: 1 });
    const readings = await readScan(scan, secret, chapter.id);
    console.log(
      row(
        `shuffled, ${PUPILS} pupils (JPEG, 150 dpi)`,
        score(readings, pages),
        `${copiesInOrder(readings, pages, true)} (scan order: ${copiesInOrder(readings, pages, false)})`,
      ),
    );
  }

  // A duplex run of a shuffled pile: each front followed by its back, the front showing through.
  {
    const fronts = shuffle(Array.from({ length: DUPLEX_PUPILS * PER_PUPIL }, (_, i) => i));
    const pages: Soiling[] = fronts.flatMap((page, i) => [
      { page, turn: i % 4 === 2 ? 180 : 0, skew: (random() - 0.5) * 3, noise: 0.15 },
      { page, back: true },
    ]);
    const scan = await copierScan(sheets, pages, 'dct', { dpi: 150, noise: 0.3, blur: 0.4, seed: 2 });
    const readings = await readScan(scan, secret, chapter.id);
    const s = score(readings, pages);
    const backs = readings.filter((r) => pages[r.page].back);
    console.log(
      row(
        `duplex, ${DUPLEX_PUPILS} pupils' fronts shuffled, each with its blank back (JPEG, 150 dpi)`,
        s,
        `${copiesInOrder(readings, pages, true)}; backs blank ${backs.filter((r) => r.status === 'blank').length} of ${backs.length}`,
      ),
    );
  }

  // Marker strokes: one code struck (either corner, any turn), then both.
  for (const [name, struck, encoding, dpi] of [
    ['one code struck', 1, 'dct', 150],
    ['one code struck', 1, 'g4', 200],
    ['both codes struck', 2, 'dct', 150],
    ['both codes struck', 2, 'g4', 200],
  ] as Array<[string, 1 | 2, CopierEncoding, number]>) {
    const n = struck === 1 ? STRUCK : Math.max(4, STRUCK / 2);
    const pages: Soiling[] = Array.from({ length: n }, (_, i) => ({
      page: 1 + ((i * 7) % (PUPILS * PER_PUPIL - 1)),
      turn: turns[i % 4],
      skew: (random() - 0.5) * 4,
      noise: 0.15,
      struck: struck === 2 ? [0, 1] : [(i % 2) as 0 | 1],
    }));
    const scan = await copierScan(sheets, pages, encoding, { dpi, noise: 0.3, blur: 0.4, seed: 3 + struck });
    const readings = await readScan(scan, secret, chapter.id);
    const s = score(readings, pages);
    console.log(
      row(
        `${name} (${encoding === 'g4' ? 'CCITT G4' : 'JPEG'}, ${dpi} dpi)`,
        s,
        struck === 2 ? 'every page left to the sorter, as it must be' : '—',
      ),
    );
  }
}

await main();
