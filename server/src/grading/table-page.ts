import { CELL_ARBITRATION, normalizeText, pseudonymOf, GRADING_UNKNOWN_AFTER_MESSAGE, type GradingTable } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { badRequest } from '../errors.js';
import { canSeeNames } from './policies.js';
import { anonymiseTableUser, presentTableHead, presentTableUser } from './presenters.js';
import {
  currentGradings,
  correctorProgress,
  firstKey,
  folded,
  giveTablePseudonyms,
  inGradingTable,
  lastKey,
  likeAny,
  packedCell,
  pagesAddedOf,
  pseudonymText,
  tableRowShape,
  tableUserColumns,
  uuidArray,
  type ChapterOptionsRow,
} from './queries.js';
import { correctorLines, doubleCopies, loadTableHead } from './table.js';
import { cellsToData, markPagesAdded, progressFromCounts } from './table-cells.js';

/**
 * The grading table by pages (decision 83): one page of pupils in the whole table's order, or (`limit=0`) what
 * the header needs, computed without the cells of every pupil.
 */

/** Where a page starts (decision 83): after this pupil in name order, or after this pseudonym number. */
type PageStart = { kind: 'names'; id: string } | { kind: 'pseudonyms'; number: number } | null;

/**
 * GET /answer/table/{id}?limit=&after=&q= (decision 83): one page of the table, in the whole table's
 * order (names, or pseudonym numbers for a corrector of an anonymous chapter), `page.next` the `after`
 * of the next page. `limit=0` asks for what the header needs instead, computed without the cells of
 * every pupil: the per-exercise counts and progress, the per-corrector lines, and how many pupils the
 * table and the search hold (a request of its own: the first rows never wait for it).
 */
export async function getGradingTablePage(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  params: { limit: number; after?: string; q?: string },
): Promise<GradingTable> {
  const { exercises, chapter } = await loadTableHead(db, chapterId);
  const head = presentTableHead(chapter, exercises);
  const exerciseIds = exercises.map((e) => e.id);
  const anonymous = !canSeeNames(auth, chapter);
  const words = normalizeText(params.q ?? '')
    .split(' ')
    .filter(Boolean);
  const header = params.limit === 0;
  if (exercises.length === 0) {
    if (params.after !== undefined) throw badRequest(GRADING_UNKNOWN_AFTER_MESSAGE);
    return header
      ? { ...head, progress: [], correctors: [], users: {}, page: { next: null, pupils: 0, matched: 0, counts: [] } }
      : { ...head, users: {}, page: { next: null } };
  }
  if (anonymous) await giveTablePseudonyms(db, chapterId, exerciseIds);
  const start = params.after === undefined ? null : await pageStart(db, chapterId, anonymous, params.after);
  if (header) {
    const summary = await pageSummary(db, auth, { chapterId, exerciseIds, anonymous, words }, chapter);
    return { ...head, progress: summary.progress, correctors: summary.correctors, users: {}, page: { next: null, ...summary.page } };
  }
  const page = await pageRows(db, { chapterId, exerciseIds, anonymous, start, words, limit: params.limit }, chapter);
  return { ...head, users: page.users, page: { next: page.next } };
}

/** The start of the page after `after`: a pupil's id, or under anonymous correction a copy id (a 400 when unknown). */
async function pageStart(db: Db, chapterId: string, anonymous: boolean, after: string): Promise<PageStart> {
  if (anonymous) {
    const cursor = await one(
      db,
      z.object({ number: column.number }),
      sql`SELECT number FROM grading_pseudonyms WHERE chapter_id = ${chapterId}::uuid AND copy_id = ${after}::uuid`,
    );
    if (!cursor) throw badRequest(GRADING_UNKNOWN_AFTER_MESSAGE);
    return { kind: 'pseudonyms', number: cursor.number };
  }
  const cursor = await one(db, z.object({ id: z.string() }), sql`SELECT id FROM users WHERE id = ${after}::uuid`);
  if (!cursor) throw badRequest(GRADING_UNKNOWN_AFTER_MESSAGE);
  return { kind: 'names', id: after };
}

const pageRowShape = tableRowShape.extend({ number: column.numberOrNull, copy_id: z.string().nullable() });

/** The pupils of one page with their cells, the « ≠ » and « pages ajoutées » marks, and the `after` of the next page. */
async function pageRows(
  db: Db,
  selection: PageSelection,
  chapter: ChapterOptionsRow,
): Promise<{ users: GradingTable['users']; next: string | null }> {
  const { exerciseIds, anonymous, limit } = selection;
  const found = await rows(db, pageRowShape, gradingPageQuery({ ...selection, limit: limit + 1 }));
  const more = found.length > limit;
  const shown = more ? found.slice(0, limit) : found;
  // Under anonymous correction a row is keyed by its copy's opaque id, never the pupil's (decision 128).
  const keyOf = new Map(shown.map((row) => [row.id, anonymous ? row.copy_id! : row.id]));
  const users: GradingTable['users'] = {};
  for (const row of shown) {
    const user = presentTableUser(row, cellsToData(row.cells, exerciseIds.length));
    users[keyOf.get(row.id)!] = anonymous ? anonymiseTableUser(user, pseudonymOf(row.number ?? 0)) : user;
  }
  if (chapter.double_grading && shown.length > 0) {
    const ids = shown.map((r) => r.id);
    for (const g of doubleCopies(await currentGradings(db, exerciseIds, ids), exerciseIds, chapter.grading_tolerance)) {
      const user = users[keyOf.get(g.user_id) ?? ''];
      if (g.awaitsArbitration && user) user.data[g.exerciseIndex] = CELL_ARBITRATION;
    }
  }
  if (shown.length > 0) {
    const flagged = await pagesAddedOf(
      db,
      exerciseIds,
      shown.map((r) => r.id),
    );
    markPagesAdded(
      users,
      flagged.map((f) => ({ ...f, user_id: keyOf.get(f.user_id)! })),
      exerciseIds,
    );
  }
  return { users, next: more ? keyOf.get(shown[shown.length - 1].id)! : null };
}

/** What the header of a paged table needs (`limit=0`, decision 83). */
async function pageSummary(db: Db, auth: AuthContext, selection: Omit<PageSelection, 'start' | 'limit'>, chapter: ChapterOptionsRow) {
  const { chapterId, exerciseIds, anonymous, words } = selection;
  const [counts, pupils, progressRows, graded] = await Promise.all([
    rows(db, z.object({ exercise_id: z.string(), answered: column.number, graded: column.number }), gradingCountsQuery(exerciseIds)),
    one(db, z.object({ pupils: column.number, matched: column.number }), gradingPupilsQuery(chapterId, exerciseIds, anonymous, words)),
    correctorProgress(db, exerciseIds),
    chapter.double_grading ? currentGradings(db, exerciseIds) : Promise.resolve(null),
  ]);
  const byIndex = exerciseIds.map((id) => counts.find((c) => c.exercise_id === id) ?? { answered: 0, graded: 0 });
  const { progress, counts: headerCounts } = progressFromCounts(
    byIndex.map((c) => ({ answered: c.answered, graded: c.graded })),
    exerciseIds,
    graded ? doubleCopies(graded, exerciseIds, chapter.grading_tolerance) : null,
  );
  return {
    progress,
    correctors: correctorLines(progressRows, auth),
    page: { pupils: pupils?.pupils ?? 0, matched: pupils?.matched ?? 0, counts: headerCounts },
  };
}

/** Rows after this pupil in the order of the page query (name keys, then id). */
function afterNames(id: string): SQL {
  return sql`(${lastKey}, ${firstKey}, u.id) > (SELECT ${lastKey}, ${firstKey}, u.id FROM users u WHERE u.id = ${id}::uuid)`;
}

/** Accent- and case-insensitive « last first » like the web's search. */
const normalizedNames = folded(sql`coalesce(u.last_name, '') || ' ' || coalesce(u.first_name, '')`);

/** Every word (already normalised) in the pupil's names, or in their pseudonym under anonymous correction; TRUE without words. */
function gradingSearch(words: readonly string[], anonymous: boolean): SQL {
  if (words.length === 0) return sql`TRUE`;
  const haystack = anonymous ? pseudonymText : normalizedNames;
  return sql.join(
    words.map((w) => sql`${haystack} LIKE ${likeAny(w)}`),
    sql` AND `,
  );
}

/** Which page of the table: its chapter and columns, whose names, where it starts, the search words and its size. */
interface PageSelection {
  chapterId: string;
  exerciseIds: readonly string[];
  anonymous: boolean;
  start: PageStart;
  words: readonly string[];
  limit: number;
}

/**
 * One page of the grading table (decision 83), in the whole table's order: by last name, first name
 * and id, or, under anonymous correction, by pseudonym number (`anonymous`: joined to grading_pseudonyms
 * as `ps`, which must hold every pupil of the table). The pupils are picked first (LIMIT), then each
 * one's cells are looked up in answers_current_idx, one probe per exercise, packed as gradingTableQuery
 * packs them.
 */
function gradingPageQuery(opts: PageSelection): SQL {
  const { chapterId, exerciseIds, anonymous, start, limit } = opts;
  const cells = exerciseIds.map(
    (id, idx) => sql`(SELECT ${packedCell(idx)} FROM answers a
        WHERE a.exercise_id = ${id}::uuid AND a.user_id = p.id AND a.withdrawn_at IS NULL
        ORDER BY a.seq DESC, a.created_at DESC LIMIT 1)`,
  );
  const after = start === null ? sql`TRUE` : start.kind === 'names' ? afterNames(start.id) : sql`ps.number > ${start.number}`;
  const picked = anonymous
    ? sql`SELECT ${tableUserColumns}, ps.number, ps.copy_id FROM grading_pseudonyms ps JOIN users u ON u.id = ps.user_id
          WHERE ps.chapter_id = ${chapterId}::uuid AND ${inGradingTable(exerciseIds)} AND ${gradingSearch(opts.words, true)} AND ${after}
          ORDER BY ps.number LIMIT ${limit}`
    : sql`SELECT ${tableUserColumns}, NULL::int AS number, NULL::uuid AS copy_id, ${lastKey} AS last_key, ${firstKey} AS first_key FROM users u
          WHERE ${inGradingTable(exerciseIds)} AND ${gradingSearch(opts.words, false)} AND ${after}
          ORDER BY last_key, first_key, u.id LIMIT ${limit}`;
  return sql`SELECT p.*, concat_ws(E'\x1f', ${sql.join(cells, sql`, `)}) AS cells
    FROM (${picked}) p
    ORDER BY ${anonymous ? sql`p.number` : sql`p.last_key, p.first_key, p.id`}`;
}

/**
 * Per exercise: current copies answered (cell other than ' ') and graded (a number or X), summed from the
 * counters the triggers of migration 0021 keep (decision 116): a few rows per exercise, whatever the
 * number of pupils. An exercise nobody answered has no row.
 */
function gradingCountsQuery(exerciseIds: readonly string[]): SQL {
  return sql`SELECT exercise_id, sum(answered)::int AS answered, sum(graded)::int AS graded
    FROM answer_counts WHERE exercise_id = ANY(${uuidArray(exerciseIds)}) GROUP BY exercise_id`;
}

/**
 * How many pupils the table and the search hold. The pupils of the chapter (chapter_pupils, kept by the
 * same triggers) are those of the table while no exercise outside the table (binned, or without answers
 * to grade) holds a current answer; otherwise, and only then, every pupil's answers are looked at.
 */
function gradingPupilsQuery(chapterId: string, exerciseIds: readonly string[], anonymous: boolean, words: readonly string[]): SQL {
  return sql`
    WITH others AS (
      SELECT EXISTS (
        SELECT 1 FROM answer_counts k JOIN exercises x ON x.id = k.exercise_id
        WHERE x.chapter_id = ${chapterId}::uuid AND k.exercise_id <> ALL(${uuidArray(exerciseIds)})
        GROUP BY k.exercise_id HAVING sum(k.pairs) <> 0) AS held
    ),
    pupils AS (
      SELECT cp.user_id AS id FROM chapter_pupils cp WHERE cp.chapter_id = ${chapterId}::uuid AND NOT (SELECT held FROM others)
      UNION ALL
      SELECT u.id FROM users u WHERE (SELECT held FROM others) AND ${inGradingTable(exerciseIds)}
    )
    SELECT count(*)::int AS pupils, (count(*) FILTER (WHERE ${gradingSearch(words, anonymous)}))::int AS matched
    FROM pupils p JOIN users u ON u.id = p.id
    ${anonymous ? sql`LEFT JOIN grading_pseudonyms ps ON ps.chapter_id = ${chapterId}::uuid AND ps.user_id = u.id` : sql``}`;
}
