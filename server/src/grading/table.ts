import { CELL_ARBITRATION, type GradingTable } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { notFound } from '../errors.js';
import { doubleStatus } from './double.js';
import { canSeeCorrectorLine, canSeeNames } from './policies.js';
import { anonymiseTableUsers, buildTableUsers, presentCorrectors, presentTableHead } from './presenters.js';
import {
  chapterOptionsColumns,
  chapterOptionsShape,
  CHAPTER_NOT_FOUND,
  correctorProgress,
  currentGradings,
  firstKey,
  lastKey,
  loadChapter,
  packedCell,
  pagesAddedOf,
  pseudonymsFor,
  tableRowShape,
  tableUserColumns,
  type AnswerableExercise,
  type ChapterOptionsRow,
  type CorrectorProgressRow,
  type CurrentGradingsRow,
} from './queries.js';
import { markPagesAdded, tableProgress } from './table-cells.js';

/**
 * The grading table (docs/product.md#spec-3): the whole table of a chapter, and what its screen and its pages
 * (table-page.ts) share: the chapter with its exercises, the double-correction state of each copy, the
 * per-corrector lines.
 */

/**
 * GET /answer/table/{id}: the chapter and its exercises in one round trip, then the cells
 * (`gradingTableQuery`) beside the per-corrector lines, then the double-correction counts and the
 * pseudonyms for chapters with those options. bench/grading: 10,000 × 12.
 */
export async function getGradingTable(db: Db, auth: AuthContext, chapterId: string): Promise<GradingTable> {
  const { exercises, chapter } = await loadTableHead(db, chapterId);
  const exerciseIds = exercises.map((e) => e.id);
  // The cells and the per-corrector lines do not depend on each other: on PostgreSQL they run on two
  // pooled connections at once (PGlite has one and runs them in turn).
  const [table, progressRows] = await Promise.all([
    exercises.length === 0
      ? Promise.resolve([])
      : db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL enable_hashagg = off`);
          return rows(tx, tableRowShape, gradingTableQuery(exerciseIds));
        }),
    correctorProgress(db, exerciseIds),
  ]);
  let users: GradingTable['users'] = buildTableUsers(table, exercises.length);
  // Double correction: how many gradings each current copy has, and the copies awaiting an admin (cell ≠).
  const counts = new Map<string, number>();
  if (chapter.double_grading) {
    for (const g of doubleCopies(await currentGradings(db, exerciseIds), exerciseIds, chapter.grading_tolerance)) {
      counts.set(`${g.user_id}:${g.exercise_id}`, g.gradings);
      const user = users[g.user_id];
      if (g.awaitsArbitration && user) user.data[g.exerciseIndex] = CELL_ARBITRATION;
    }
  }
  const progress = tableProgress(users, exerciseIds, chapter.double_grading ? counts : null);
  if (exercises.length > 0) markPagesAdded(users, await pagesAddedOf(db, exerciseIds), exerciseIds);
  if (!canSeeNames(auth, chapter)) users = anonymiseTableUsers(users, await pseudonymsFor(db, chapterId, Object.keys(users)));
  return { ...presentTableHead(chapter, exercises), progress, correctors: correctorLines(progressRows, auth), users };
}

const tableHeadShape = chapterOptionsShape.extend({
  exercises: z.array(z.object({ id: z.string(), title: z.string(), answer_format: z.string(), max_points: column.number })),
});

/** The chapter and its answerable exercises in one round trip (a missing chapter: 404). */
export async function loadTableHead(db: Db, chapterId: string): Promise<{ chapter: ChapterOptionsRow; exercises: AnswerableExercise[] }> {
  const head = await one(
    db,
    tableHeadShape,
    sql`SELECT ${chapterOptionsColumns},
          coalesce((SELECT json_agg(json_build_object('id', e.id, 'title', e.title, 'answer_format', e.answer_format, 'max_points', e.max_points)
                                    ORDER BY e.position, e.created_at, e.id)
                    FROM exercises e WHERE e.chapter_id = c.id AND e.answer_format <> 'none' AND e.deleted_at IS NULL), '[]') AS exercises
        FROM chapters c WHERE c.id = ${chapterId}::uuid AND c.deleted_at IS NULL`,
  );
  if (!head) throw notFound(CHAPTER_NOT_FOUND);
  const { exercises, ...chapter } = head;
  return { chapter, exercises };
}

/** Double correction: per current copy with gradings, its gradings given and whether it awaits an admin (cell « ≠ »). */
export function doubleCopies(found: readonly CurrentGradingsRow[], exerciseIds: readonly string[], tolerance: number) {
  const index = new Map(exerciseIds.map((id, i) => [id, i]));
  return found.map((g) => {
    const graded = g.grades.filter((x) => x !== null);
    const status = g.arbitrated
      ? 'arbitrated'
      : doubleStatus(
          graded.map((grade) => ({ grader_id: null, grade, arbitration: false })),
          tolerance,
        );
    return {
      user_id: g.user_id,
      exercise_id: g.exercise_id,
      exerciseIndex: index.get(g.exercise_id)!,
      answered: g.answered,
      graded: g.grade !== null && g.grade !== '',
      gradings: graded.length,
      awaitsArbitration: status === 'arbitration' && g.grade === null,
    };
  });
}

/** The per-corrector lines the caller may read (decision 129). */
export const correctorLines = (progressRows: readonly CorrectorProgressRow[], auth: AuthContext) =>
  presentCorrectors(progressRows.filter((c) => canSeeCorrectorLine(auth, c.grader_id)));

/**
 * The grading table's cells, one row per pupil with a current answer (`TableRow`), run
 * with `enable_hashagg = off` in its transaction. Per exercise, DISTINCT ON keeps the current answer of
 * each pupil (highest seq, then latest; withdrawn copies excluded) straight from answers_current_idx
 * (index-only once vacuumed), in user order; the branches are one UNION ALL that PostgreSQL merges in
 * user order (Merge Append), so the cells are grouped per pupil without a hash table — hashing ~110,000
 * cells spilled to disk at the default work_mem and cost a third of the query, hence hash aggregation
 * off. The grouped cells are joined to the pupils, sorted by last name. Each cell travels as its final
 * value, `idx:value` joined by U+001F, one text per pupil (cheaper to parse than arrays). The cell is the
 * rule of `cellValue` written to be cheap per index tuple: an ungraded or blank cell is a constant of the
 * statement (no concatenation), and btrim (which copies the answer and walks it character by character
 * in UTF-8) only runs on an answer that starts with a space. bench/grading: 10,000 × 12.
 */
export function gradingTableQuery(exerciseIds: readonly string[]): SQL {
  const branches = exerciseIds.map(
    (id, idx) => sql`(
        SELECT DISTINCT ON (a.user_id) a.user_id,
          ${packedCell(idx)} AS cell
        FROM answers a
        WHERE a.exercise_id = ${id}::uuid AND a.withdrawn_at IS NULL
        ORDER BY a.user_id, a.seq DESC, a.created_at DESC)`,
  );
  return sql`
        WITH agg AS (
          SELECT user_id, string_agg(cell, E'\x1f') AS cells
          FROM (${sql.join(branches, sql` UNION ALL `)}) cur
          GROUP BY user_id
        )
        SELECT ${tableUserColumns}, agg.cells
        FROM agg JOIN users u ON u.id = agg.user_id
        ORDER BY ${lastKey}, ${firstKey}, u.id`;
}

/** GET /answer/unlabeled/stats/{id}: scanned copies of the chapter still to sort, shown above its table. */
export async function countUnlabeled(db: Tx, chapterId: string): Promise<{ count: number }> {
  await loadChapter(db, chapterId);
  const row = await one(
    db,
    z.object({ count: column.number }),
    sql`SELECT count(*)::int AS count FROM unlabeled_answers WHERE chapter_id = ${chapterId}::uuid AND labeled_at IS NULL`,
  );
  return { count: row!.count };
}
