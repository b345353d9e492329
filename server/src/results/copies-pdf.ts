import { formatTotal, type ReturnedExercise } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { chapters } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { FileStore } from '../files/store.js';
import { renderCorrectedCopiesInWorker } from '../pdf/pdf-pool.js';
import type { CorrectedCopyData } from './corrected-copy.js';
import { presentReturnedExercise } from './presenters.js';
import { loadReturnedCopies, type ReturnedCopyRow } from './returned-copies.js';

/** « Ma copie corrigée » (docs/product.md#returned-copies, decision 162): one copy's PDF, drawn in the PDF worker pool. */

type ChapterRow = typeof chapters.$inferSelect;

const gradeText = (e: ReturnedExercise) => (e.excused ? 'X' : e.grade === null ? 'non noté' : formatTotal(e.grade, e.maxPoints));

/** What the worker draws for one exercise of a pupil's copy (the presenter's allow-list: no name unless the chapter names). */
export async function correctedCopyData(
  store: FileStore,
  chapter: ChapterRow,
  pupil: string,
  row: ReturnedCopyRow,
): Promise<CorrectedCopyData> {
  const shown = presentReturnedExercise(row, chapter.correctorNamed);
  const fileId = row.answer?.file_id;
  const pdf = fileId ? await store.get(fileId) : null;
  return {
    pdf: pdf ? new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength) : null,
    chapterTitle: chapter.title,
    exerciseTitle: shown.title,
    pupil,
    grade: gradeText(shown),
    comment: shown.comment,
    correctors: shown.layers.flatMap((l) => (l.corrector ? [l.corrector] : [])),
    annotations: shown.layers.flatMap((l) => l.annotations),
    items: Object.fromEntries(shown.items.map((i) => [i.id, i.text])),
  };
}

/** « Sophie GERMAIN ». */
export const pupilName = (p: { first_name: string | null; last_name: string | null }) =>
  `${p.first_name ?? ''} ${(p.last_name ?? '').toLocaleUpperCase('fr')}`.trim();

/** A file name without what file systems refuse. */
export const safeName = (text: string) =>
  text
    .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100);

/**
 * GET /results/{chapterId}/copies/{exerciseId}.pdf: the caller's corrected copy of one exercise (the guard of
 * GET /results/{chapterId}/copies), 404 for an exercise not of the chapter.
 */
export async function correctedCopyPdf(db: Db, store: FileStore, auth: AuthContext, chapterId: string, exerciseId: string, user?: string) {
  const { chapter, userId, copies } = await loadReturnedCopies(db, auth, chapterId, user);
  const row = copies.find((c) => c.exercise.id === exerciseId);
  if (!row) throw notFound('Exercice introuvable dans ce chapitre.');
  const [pupil] = await rows(
    db,
    z.object({ first_name: z.string().nullable(), last_name: z.string().nullable() }),
    sql`SELECT first_name, last_name FROM users WHERE id = ${userId}::uuid`,
  );
  const [rendered] = await renderCorrectedCopiesInWorker([await correctedCopyData(store, chapter, pupil ? pupilName(pupil) : '', row)]);
  return {
    bytes: rendered.bytes,
    fileName: `Ma copie corrigée - ${safeName(chapter.title) || 'épreuve'} - ${safeName(row.exercise.title)}.pdf`,
  };
}
