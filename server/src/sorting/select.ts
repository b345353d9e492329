import { SORTING_RESERVATION_MINUTES, type SortingSelection } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { notFound } from '../errors.js';
import type { FileStore } from '../files/store.js';
import { registeredPupils } from './pupils.js';
import { countPages } from './split.js';
import { cleanPageReadings, cleanSuggestions } from './suggestions.js';

/** The reservation window as SQL (docs/product.md#design-3: a sorter holds a copy 10 minutes). */
export const RESERVATION = sql.raw(`interval '${SORTING_RESERVATION_MINUTES} minutes'`);

/** The copy reserved for the caller; its instants are ISO strings written by to_char. */
const reservedRow = z.object({
  id: z.string(),
  file_id: z.string(),
  institution_id: z.string().nullable(),
  institution_name: z.string().nullable(),
  created_at: z.string(),
  reserved_until: z.string(),
  suggestions: z.unknown(),
  page_readings: z.unknown(),
  read_error: z.string().nullable(),
  pages: z.number().nullable(),
  original_name: z.string(),
});

export async function loadSortingChapter(db: Tx, chapterId: string): Promise<{ id: string; title: string }> {
  const [chapter] = await rows(
    db,
    z.object({ id: z.string(), title: z.string() }),
    sql`SELECT id, title FROM chapters WHERE id = ${chapterId}::uuid AND deleted_at IS NULL`,
  );
  if (!chapter) throw notFound('Chapitre introuvable.');
  return chapter;
}

/**
 * GET /answer/unlabeled/select/{chapterId} (docs/product.md#design-3 Sorting): the caller's own reserved copy if
 * they hold one, else the oldest unlabelled copy nobody else reserved in the last 10 minutes,
 * reserved in the same statement. FOR UPDATE SKIP LOCKED: two sorters asking together get two
 * different copies, on PGlite and PostgreSQL alike. Null when nothing is left.
 */
export async function selectCopy(deps: { db: Db; store: FileStore }, auth: AuthContext, chapterId: string): Promise<SortingSelection> {
  const { db } = deps;
  const chapter = await loadSortingChapter(db, chapterId);
  const me = auth.userId;
  const [row] = await rows(
    db,
    reservedRow,
    sql`
    WITH picked AS (
      UPDATE unlabeled_answers SET reserved_by = ${me}::uuid, reserved_at = now()
      WHERE id = (
        SELECT id FROM unlabeled_answers
        WHERE chapter_id = ${chapterId}::uuid AND labeled_at IS NULL
          AND (reserved_by IS NULL OR reserved_by = ${me}::uuid OR reserved_at IS NULL OR reserved_at < now() - ${RESERVATION})
        ORDER BY (reserved_by IS NOT DISTINCT FROM ${me}::uuid) DESC, created_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
      RETURNING id, file_id, institution_id, created_at, reserved_at, suggestions, page_readings, read_error)
    SELECT p.id, p.file_id, p.institution_id, i.name AS institution_name, p.suggestions, p.page_readings, p.read_error,
      to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
      to_char((p.reserved_at + ${RESERVATION}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS reserved_until,
      f.pages, f.original_name
    FROM picked p JOIN files f ON f.id = p.file_id LEFT JOIN institutions i ON i.id = p.institution_id`,
  );
  if (!row) return null;

  let pages = row.pages;
  if (pages === null) {
    const bytes = await deps.store.get(row.file_id);
    if (!bytes) throw notFound('Le fichier de cette copie est introuvable.');
    pages = await countPages(bytes);
    await db.execute(sql`UPDATE files SET pages = ${pages} WHERE id = ${row.file_id}::uuid`);
  }
  const [{ remaining }] = await rows(
    db,
    z.object({ remaining: column.number }),
    sql`SELECT count(*)::int AS remaining FROM unlabeled_answers WHERE chapter_id = ${chapterId}::uuid AND labeled_at IS NULL`,
  );
  const exercises = await rows(
    db,
    z.object({ id: z.string(), title: z.string() }),
    sql`SELECT id, title FROM exercises WHERE chapter_id = ${chapterId}::uuid AND answer_format = 'pdf' AND deleted_at IS NULL ORDER BY position, created_at, id`,
  );
  const suggestions = cleanSuggestions(row.suggestions, pages);
  const suggestedIds = (suggestions ?? []).flatMap((s) => (s.user ? [s.user] : []));
  const pupils = await registeredPupils(db, chapterId, row.institution_id, suggestedIds);
  return {
    copy: {
      _id: row.id,
      answer: `pdfs/${row.file_id}.pdf`,
      pages,
      originalName: row.original_name,
      institution: row.institution_id ? { _id: row.institution_id, name: row.institution_name ?? '' } : null,
      createdAt: row.created_at,
      reservedUntil: row.reserved_until,
      suggestions,
      pageReadings: cleanPageReadings(row.page_readings, pages),
      readError: row.read_error,
    },
    chapter: { _id: chapter.id, title: chapter.title },
    remaining,
    exercises: exercises.map((e) => ({ _id: e.id, title: e.title })),
    pupils,
  };
}
