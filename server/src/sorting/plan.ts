import type { PageLabel } from '@olympe/contract';
import { badRequest } from '../errors.js';

/** One answer to create: a pupil's pages for one exercise. */
export interface LabelPart {
  user: string;
  exercise: string;
  pages: Array<{ pageNum: number; rotation: number }>;
}

/**
 * What the code of a scanned page says of it (stored by the decode job with its suggestion): the
 * pupil (null on a blank sheet), the exercise and the page number printed on the sheet.
 */
export interface PrintedPage {
  user: string | null;
  exercise: string;
  sheetPage: number;
}

export interface LabelPlan {
  parts: LabelPart[];
  /** First page naming each pupil / exercise, for the messages of the database checks. */
  firstPageOfUser: Map<string, number>;
  firstPageOfExercise: Map<string, number>;
}

/**
 * The checks of a label array that need no database (docs/product.md#spec-3 "Sorting entry per page"): page
 * numbers within the PDF, each page at most once, a pupil's page names an exercise. Pages with no
 * pupil are blank and dropped; pages not sent are dropped too. Groups the rest by (pupil,
 * exercise), each part's pages in the order printed on the sheets (`printed`, by scanned page
 * number; orderPart). Throws a French 400 on the first fault, in page order.
 */
export function planLabel(entries: PageLabel[], pageCount: number, printed: ReadonlyMap<number, PrintedPage> = new Map()): LabelPlan {
  const sorted = [...entries].sort((a, b) => a.pageNum - b.pageNum);
  const seen = new Set<number>();
  for (const e of sorted) {
    if (e.pageNum > pageCount) {
      throw badRequest(`Page ${e.pageNum} : ce PDF n’a que ${pageCount} page${pageCount > 1 ? 's' : ''}.`);
    }
    if (seen.has(e.pageNum)) throw badRequest(`Page ${e.pageNum} : cette page est indiquée plusieurs fois.`);
    seen.add(e.pageNum);
    if (e.user !== null && e.exercises.length === 0) {
      throw badRequest(`Page ${e.pageNum} : choisissez au moins un exercice (ou marquez la page blanche).`);
    }
  }
  const parts = new Map<string, LabelPart>();
  const firstPageOfUser = new Map<string, number>();
  const firstPageOfExercise = new Map<string, number>();
  for (const e of sorted) {
    if (e.user === null) continue;
    if (!firstPageOfUser.has(e.user)) firstPageOfUser.set(e.user, e.pageNum);
    for (const exercise of new Set(e.exercises)) {
      if (!firstPageOfExercise.has(exercise)) firstPageOfExercise.set(exercise, e.pageNum);
      const key = `${e.user}|${exercise}`;
      let part = parts.get(key);
      if (!part) parts.set(key, (part = { user: e.user, exercise, pages: [] }));
      part.pages.push({ pageNum: e.pageNum, rotation: e.rotation });
    }
  }
  for (const part of parts.values()) {
    part.pages = orderPart(part.pages.map((p) => ({ ...p, sheetPage: printedNumber(printed.get(p.pageNum), part) }))).map(
      ({ pageNum, rotation }) => ({ pageNum, rotation }),
    );
  }
  return { parts: [...parts.values()], firstPageOfUser, firstPageOfExercise };
}

/** The printed page number of a page, when its code names this part's exercise and pupil (or no pupil: a blank sheet). */
function printedNumber(code: PrintedPage | undefined, part: LabelPart): number | null {
  if (!code || code.exercise !== part.exercise || (code.user !== null && code.user !== part.user)) return null;
  return code.sheetPage;
}

/**
 * One part's pages, given in scan order, put in the order printed on the sheets (decision 108):
 * - a page without a printed number (no code read, or a code the sorter overruled) follows the
 *   page with a number scanned just before it, and pages before any numbered one stay first, so
 *   a spare sheet keeps its place behind the page it was slipped after;
 * - when the numbered pages come mostly in descending order (a pile fed from its last page, or
 *   turned over), the part is read backwards first, so the spare sheets keep their side too;
 * - then the numbered pages, each with the pages that follow it, are sorted by their number;
 *   equal numbers (a sheet scanned twice) keep the scan order.
 */
export function orderPart<T extends { sheetPage: number | null }>(pages: T[]): T[] {
  const numbered = pages.flatMap((p) => (p.sheetPage === null ? [] : [p.sheetPage]));
  let up = 0;
  let down = 0;
  for (let i = 1; i < numbered.length; i++) {
    if (numbered[i] > numbered[i - 1]) up++;
    else if (numbered[i] < numbered[i - 1]) down++;
  }
  const scan = down > up ? [...pages].reverse() : pages;
  const groups: Array<{ key: number; pages: T[] }> = [];
  for (const page of scan) {
    if (page.sheetPage !== null || groups.length === 0) groups.push({ key: page.sheetPage ?? -1, pages: [page] });
    else groups[groups.length - 1].pages.push(page);
  }
  // Array.prototype.sort is stable: equal numbers keep the scan order.
  return groups.sort((a, b) => a.key - b.key).flatMap((g) => g.pages);
}
