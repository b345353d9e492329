import type { PageLabel } from '@olympe/contract';
import { badRequest } from '../errors.js';

/** One answer to create: a pupil's pages for one exercise. */
export interface LabelPart {
  user: string;
  exercise: string;
  pages: Array<{ pageNum: number; rotation: number }>;
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
 * exercise), pages in order. Throws a French 400 on the first fault, in page order.
 */
export function planLabel(entries: PageLabel[], pageCount: number): LabelPlan {
  const sorted = [...entries].sort((a, b) => a.pageNum - b.pageNum);
  const seen = new Set<number>();
  for (const e of sorted) {
    if (e.pageNum > pageCount) {
      throw badRequest(`Page ${e.pageNum} : ce PDF n’a que ${pageCount} page${pageCount > 1 ? 's' : ''}.`);
    }
    if (seen.has(e.pageNum)) throw badRequest(`Page ${e.pageNum} : cette page est indiquée plusieurs fois.`);
    seen.add(e.pageNum);
    if (e.user !== null && e.exercises.length === 0) {
      throw badRequest(`Page ${e.pageNum} : choisissez au moins un exercice (ou marquez la page blanche).`);
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
  return { parts: [...parts.values()], firstPageOfUser, firstPageOfExercise };
}
