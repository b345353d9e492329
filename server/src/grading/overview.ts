import { normalizeText, pseudonymOf, type OverviewPage, type OverviewQuery, type OverviewRow, type Person } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { nameSortKey } from '../db/name-key.js';
import { column, one, rows } from '../db/query.js';
import { doubleStatus, visibleGradings } from './double.js';
import { canSeeEveryGrading, canSeeNames } from './policies.js';
import { presentOverviewRow, presentStudent, type OverviewLine } from './presenters.js';
import {
  folded,
  giveTablePseudonyms,
  gradingsByAnswer,
  isCurrent,
  isoMs,
  likeAny,
  loadChapter,
  pseudonymsFor,
  pseudonymText,
  uuidArray,
  type ChapterOptionsRow,
  type GradingRow,
} from './queries.js';

/**
 * The overview of a chapter's grades (docs/product.md#spec-2 « Overview »): every graded copy (the CSV), or the
 * review page's pages, filtered, sorted and paged by the server (decision 94).
 */

const overviewLineShape = z.object({
  id: z.string(),
  user_id: z.string(),
  s_first: z.string().nullable(),
  s_last: z.string().nullable(),
  grader_id: z.string().nullable(),
  g_first: z.string().nullable(),
  g_last: z.string().nullable(),
  exercise_id: z.string(),
  title: z.string(),
  max_points: column.number,
  grade: z.string().nullable(),
  grade_comment: z.string().nullable(),
  grade_timestamp: z.string().nullable(),
});

/**
 * GET /answer/overview/{chapterId}: the graded current answers of the chapter, latest first. Decision 63:
 * double correction adds each copy's gradings and status (a copy with gradings but no settled grade
 * is listed too; a corrector sees another's grading only once both are in); under anonymous
 * correction a corrector sees pseudonyms.
 */
export async function listOverview(db: Db, auth: AuthContext, chapterId: string): Promise<OverviewRow[]> {
  const chapter = await loadChapter(db, chapterId);
  const list = await rows(
    db,
    overviewLineShape,
    sql`
    WITH cur AS (
      SELECT DISTINCT ON (a.user_id, a.exercise_id) a.*
      FROM answers a JOIN exercises e ON e.id = a.exercise_id
      WHERE e.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL AND a.withdrawn_at IS NULL
      ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC
    )
    SELECT cur.id, cur.user_id, s.first_name AS s_first, s.last_name AS s_last,
      cur.grader_id, g.first_name AS g_first, g.last_name AS g_last,
      e.id AS exercise_id, e.title, e.max_points, cur.grade, cur.grade_comment, ${isoMs(sql`cur.grade_timestamp`)} AS grade_timestamp
    FROM cur JOIN users s ON s.id = cur.user_id JOIN exercises e ON e.id = cur.exercise_id
    LEFT JOIN users g ON g.id = cur.grader_id
    WHERE cur.grade_timestamp IS NOT NULL
      ${chapter.double_grading ? sql`OR EXISTS (SELECT 1 FROM gradings gr WHERE gr.answer_id = cur.id)` : sql``}
    ORDER BY cur.grade_timestamp DESC NULLS LAST, cur.id`,
  );
  const byAnswer = chapter.double_grading
    ? await gradingsByAnswer(
        db,
        list.map((r) => r.id),
      )
    : null;
  const pseudonyms = !canSeeNames(auth, chapter)
    ? await pseudonymsFor(
        db,
        chapterId,
        list.map((r) => r.user_id),
      )
    : null;
  return list.map((r) => {
    const copy = pseudonyms?.get(r.user_id);
    const student = pseudonyms
      ? presentStudent(copy!.copyId, null, null, copy!.pseudonym)
      : presentStudent(r.user_id, r.s_first, r.s_last, undefined);
    return overviewRow(auth, chapter, r, student, byAnswer);
  });
}

/** One row of the overview; in double correction its status and the gradings the caller may see. */
function overviewRow(
  auth: AuthContext,
  chapter: ChapterOptionsRow,
  r: OverviewLine,
  student: Person,
  byAnswer: ReadonlyMap<string, GradingRow[]> | null,
): OverviewRow {
  if (!byAnswer) return presentOverviewRow(r, student, null);
  const gradings = byAnswer.get(r.id) ?? [];
  // Admins supervise: they see every grading; a corrector, only once both are in.
  const visible = canSeeEveryGrading(auth) ? gradings : visibleGradings(gradings, auth.userId);
  return presentOverviewRow(r, student, { status: doubleStatus(gradings, chapter.grading_tolerance), gradings: visible });
}

/**
 * GET /answer/overview/{chapterId}?limit=… (decision 94): the review page asks for what it shows. The server
 * filters (the page's three accent-insensitive filters), sorts (any column, French name order) and pages
 * (`limit` rows from `offset`); `limit=0` gives the counts alone. Rows are the same as the whole list's
 * (listOverview): pseudonyms under anonymous correction, gradings a corrector may see in double correction.
 */
export async function listOverviewPage(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  query: OverviewQuery & { limit: number },
): Promise<OverviewPage> {
  const chapter = await loadChapter(db, chapterId);
  const double = chapter.double_grading;
  const exerciseIds = (
    await rows(db, z.object({ id: z.string() }), sql`SELECT id FROM exercises WHERE chapter_id = ${chapterId}::uuid AND deleted_at IS NULL`)
  ).map((e) => e.id);
  if (exerciseIds.length === 0)
    return query.limit === 0 ? { rows: [], next: null, double, total: 0, matched: 0 } : { rows: [], next: null, double };
  const anonymous = !canSeeNames(auth, chapter);
  // The pseudonym filter and order read grading_pseudonyms, which must then hold every pupil listed.
  if (anonymous) await giveTablePseudonyms(db, chapterId, exerciseIds);
  const selection: OverviewSelection = {
    chapterId,
    exerciseIds,
    double,
    anonymous,
    viewer: { userId: auth.userId, seesEveryGrading: canSeeEveryGrading(auth) },
    filters: { student: normalizeText(query.student), grader: normalizeText(query.grader), exercise: normalizeText(query.exercise) },
  };
  if (query.limit === 0) {
    const counts = await one(db, z.object({ total: column.number, matched: column.number }), overviewCountQuery(selection));
    return { rows: [], next: null, double, total: counts!.total, matched: counts!.matched };
  }
  const offset = query.offset ?? 0;
  const sort = query.sort ?? 'date';
  const order = overviewOrder(sort, query.dir ?? (sort === 'date' ? 'desc' : 'asc'), anonymous);
  const found = await rows(db, overviewPageShape, overviewPageQuery(selection, order, query.limit + 1, offset));
  const more = found.length > query.limit;
  const shown = more ? found.slice(0, query.limit) : found;
  const byAnswer = double
    ? await gradingsByAnswer(
        db,
        shown.map((r) => r.id),
      )
    : null;
  return {
    rows: shown.map((r) => {
      const student = anonymous
        ? presentStudent(r.copy_id!, null, null, pseudonymOf(r.number ?? 0))
        : presentStudent(r.user_id, r.s_first, r.s_last, undefined);
      return overviewRow(auth, chapter, r, student, byAnswer);
    }),
    next: more ? offset + query.limit : null,
    double,
  };
}

/** « First Last », as the page writes a person (fullName). */
const personName = (first: SQL, last: SQL) => sql`btrim(coalesce(${first}, '') || ' ' || coalesce(${last}, ''))`;
/** Who set answer `a`'s grade (`g`), as the page names them; « Correction automatique » for no one. */
const setterName = sql`CASE WHEN a.grader_id IS NULL THEN 'Correction automatique' ELSE ${personName(sql`g.first_name`, sql`g.last_name`)} END`;

interface OverviewSelection {
  chapterId: string;
  exerciseIds: readonly string[];
  double: boolean;
  /** Under anonymous correction: joined to grading_pseudonyms as `ps`, which must hold every pupil. */
  anonymous: boolean;
  /** Whose gradings a filter may see (visibleGradings): every one for whom canSeeEveryGrading. */
  viewer: { userId: string; seesEveryGrading: boolean };
  /** Already normalised (normalizeText); '' filters nothing. */
  filters: { student: string; grader: string; exercise: string };
}

/** The filter on who graded: whoever set the grade, or in double correction any grading the viewer may see. */
function graderFilter(sel: OverviewSelection, grader: string): SQL {
  const setter = sql`${folded(setterName)} LIKE ${likeAny(grader)}`;
  if (!sel.double) return setter;
  // visibleGradings: a corrector sees another's grading once both are in (or an arbitration is).
  const visible = sel.viewer.seesEveryGrading
    ? sql`TRUE`
    : sql`(gr.grader_id = ${sel.viewer.userId}::uuid OR (SELECT count(*) FILTER (WHERE NOT g2.arbitration) >= 2 OR bool_or(g2.arbitration)
          FROM gradings g2 WHERE g2.answer_id = a.id))`;
  return sql`(${setter} OR EXISTS (SELECT 1 FROM gradings gr JOIN users gu ON gu.id = gr.grader_id
      WHERE gr.answer_id = a.id AND ${visible} AND ${folded(personName(sql`gu.first_name`, sql`gu.last_name`))} LIKE ${likeAny(grader)}))`;
}

/**
 * The copies the overview lists (decision 94), as `FROM … WHERE …` over `a` (the answer), `e`, `s` (the
 * pupil), `g` (who set the grade) and `ps`: current answers of the chapter's exercises that are graded, or in
 * double correction that have a grading. The filters follow the page's: the pupil's « First Last » (or
 * pseudonym), the exercise's title, and for the corrector whoever set the grade (« Correction automatique »
 * for none) or any grading the viewer may see.
 */
function overviewFrom(sel: OverviewSelection): SQL {
  const { student, grader, exercise } = sel.filters;
  const conditions: SQL[] = [
    sql`a.exercise_id = ANY(${uuidArray(sel.exerciseIds)})`,
    isCurrent,
    sel.double
      ? sql`(a.grade_timestamp IS NOT NULL OR EXISTS (SELECT 1 FROM gradings gr WHERE gr.answer_id = a.id))`
      : sql`a.grade_timestamp IS NOT NULL`,
  ];
  if (student !== '') {
    conditions.push(
      sel.anonymous
        ? sql`${pseudonymText} LIKE ${likeAny(student)}`
        : sql`${folded(personName(sql`s.first_name`, sql`s.last_name`))} LIKE ${likeAny(student)}`,
    );
  }
  if (exercise !== '') conditions.push(sql`${folded(sql`e.title`)} LIKE ${likeAny(exercise)}`);
  if (grader !== '') conditions.push(graderFilter(sel, grader));
  return sql`FROM answers a JOIN exercises e ON e.id = a.exercise_id JOIN users s ON s.id = a.user_id
      LEFT JOIN users g ON g.id = a.grader_id
      ${sel.anonymous ? sql`JOIN grading_pseudonyms ps ON ps.chapter_id = ${sel.chapterId}::uuid AND ps.user_id = a.user_id` : sql``}
      WHERE ${sql.join(conditions, sql` AND `)}`;
}

/** A grade as a number when it is one (« X » and the like sort after the numbers). */
const gradeNumber = sql`CASE WHEN a.grade ~ '^[0-9]+([.][0-9]+)?$' THEN a.grade::numeric END`;

/** The overview's order (decision 94): the asked column, empty last either way, then the answer's id. */
function overviewOrder(sort: 'date' | 'student' | 'grader' | 'exercise' | 'grade', dir: 'asc' | 'desc', anonymous: boolean): SQL {
  const d = dir === 'asc' ? sql`ASC` : sql`DESC`;
  const keys: SQL[] =
    sort === 'date'
      ? [sql`a.grade_timestamp`]
      : sort === 'student'
        ? anonymous
          ? [sql`ps.number`]
          : [nameSortKey(sql`s.last_name`), nameSortKey(sql`s.first_name`)]
        : sort === 'grader'
          ? [nameSortKey(setterName)]
          : sort === 'exercise'
            ? [nameSortKey(sql`e.title`)]
            : [gradeNumber, sql`a.grade`];
  return sql.join([...keys.map((k) => sql`${k} ${d} NULLS LAST`), sql`a.id`], sql`, `);
}

const overviewPageShape = overviewLineShape.extend({ number: column.numberOrNull, copy_id: z.string().nullable() });

/** One page of the overview in the given order. */
function overviewPageQuery(sel: OverviewSelection, order: SQL, limit: number, offset: number): SQL {
  return sql`SELECT a.id, a.user_id, s.first_name AS s_first, s.last_name AS s_last, ${sel.anonymous ? sql`ps.number` : sql`NULL::int`} AS number, ${sel.anonymous ? sql`ps.copy_id` : sql`NULL::uuid`} AS copy_id,
      a.grader_id, g.first_name AS g_first, g.last_name AS g_last, e.id AS exercise_id, e.title, e.max_points,
      a.grade, a.grade_comment, ${isoMs(sql`a.grade_timestamp`)} AS grade_timestamp
    ${overviewFrom(sel)}
    ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
}

/** How many copies the overview lists, and how many of them the filters keep. */
function overviewCountQuery(sel: OverviewSelection): SQL {
  const all = overviewFrom({ ...sel, filters: { student: '', grader: '', exercise: '' } });
  const filtered = sel.filters.student !== '' || sel.filters.grader !== '' || sel.filters.exercise !== '';
  return filtered
    ? sql`SELECT (SELECT count(*) ${all})::int AS total, (SELECT count(*) ${overviewFrom(sel)})::int AS matched`
    : sql`SELECT count(*)::int AS total, count(*)::int AS matched ${all}`;
}
