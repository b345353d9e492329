import { CELL_NONE, CELL_UNGRADED, pseudonymOf } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { nameSortKey } from '../db/name-key.js';
import { rows } from '../db/query.js';

/**
 * Named SQL of the marks (gradings, pseudonyms, assignments, progress: decisions 61–64): no rules here, the service
 * decides what to do with the rows.
 */

/** Timestamps travel as ISO text cut to the millisecond, so the conflict check compares what the client got. */
export const isoMs = (column: SQL) =>
  sql`to_char(date_trunc('milliseconds', ${column}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** The answer is its pupil's current one for the exercise (highest seq, then latest, not withdrawn). */
const isCurrent = (a: string) =>
  sql.raw(`${a}.withdrawn_at IS NULL AND NOT EXISTS (
    SELECT 1 FROM answers b WHERE b.user_id = ${a}.user_id AND b.exercise_id = ${a}.exercise_id AND b.withdrawn_at IS NULL
      AND (b.seq, b.created_at, b.id) > (${a}.seq, ${a}.created_at, ${a}.id))`);

/** A constant of the statement's own text (never user input): folded once by the planner. */
const textLiteral = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`);

/** An answer `a` is answered: something left once spaces are trimmed (btrim only when it starts with one). */
const answeredSql = sql`a.answer <> '' AND (NOT starts_with(a.answer, ' ') OR btrim(a.answer) <> '')`;

/** The packed cell `idx:value` of answer `a` (the rule of `cellValue`; see gradingTableQuery). */
const packedCell = (idx: number) =>
  sql`CASE WHEN a.grade <> '' THEN ${textLiteral(`${idx}:`)} || a.grade
            WHEN ${answeredSql} THEN ${textLiteral(`${idx}:${CELL_UNGRADED}`)}
            ELSE ${textLiteral(`${idx}:${CELL_NONE}`)} END`;

/** Pupil `u` has a current answer to one of these exercises: a row of the whole table. */
export const inGradingTable = (exerciseIds: readonly string[]) =>
  sql`EXISTS (SELECT 1 FROM answers a WHERE a.user_id = u.id AND a.exercise_id = ANY(${uuidArray(exerciseIds)}) AND a.withdrawn_at IS NULL)`;

/** Where a page starts (decision 83): after this pupil in name order, or after this pseudonym number. */
export type PageStart = { kind: 'names'; id: string } | { kind: 'pseudonyms'; number: number } | null;

/** The pupils' name keys (db/name-key.ts), as the index `users_name_key_idx` holds them. */
const lastKey = nameSortKey(sql`u.last_name`);
const firstKey = nameSortKey(sql`u.first_name`);

/** Rows after this pupil in the order of the page query (name keys, then id). */
function afterNames(id: string): SQL {
  return sql`(${lastKey}, ${firstKey}, u.id) > (SELECT ${lastKey}, ${firstKey}, u.id FROM users u WHERE u.id = ${id}::uuid)`;
}

/** The pseudonym text of `ps.number`, lower case, as `pseudonymOf` writes it (« copie 0042 »). */
const pseudonymText = sql`'copie ' || CASE WHEN ps.number >= 1000 THEN ps.number::text ELSE lpad(ps.number::text, 4, '0') END`;

/** A text as normalizeText folds it (NFD, marks dropped, lower case): the searches and filters compare these. */
const folded = (text: SQL) => sql`regexp_replace(normalize(lower(${text}), NFD), ${'[\u0300-\u036f]'}, '', 'g')`;
/** A LIKE pattern holding `value` anywhere, its `%`, `_` and `\` taken literally. */
const likeAny = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

/** Accent- and case-insensitive « last first » like the web's search. */
const normalizedNames = folded(sql`coalesce(u.last_name, '') || ' ' || coalesce(u.first_name, '')`);

/** Every word (already normalised) in the pupil's names, or in their pseudonym under anonymous correction; TRUE without words. */
export function gradingSearch(words: readonly string[], anonymous: boolean): SQL {
  if (words.length === 0) return sql`TRUE`;
  const haystack = anonymous ? pseudonymText : normalizedNames;
  return sql.join(
    words.map((w) => sql`${haystack} LIKE ${likeAny(w)}`),
    sql` AND `,
  );
}

/**
 * One page of the grading table (decision 83), in the whole table's order: by last name, first name
 * and id, or, under anonymous correction, by pseudonym number (`anonymous`: joined to grading_pseudonyms
 * as `ps`, which must hold every pupil of the table). The pupils are picked first (LIMIT), then each
 * one's cells are looked up in answers_current_idx, one probe per exercise, packed as gradingTableQuery
 * packs them.
 */
export function gradingPageQuery(opts: {
  chapterId: string;
  exerciseIds: readonly string[];
  anonymous: boolean;
  start: PageStart;
  words: readonly string[];
  limit: number;
}): SQL {
  const { chapterId, exerciseIds, anonymous, start, limit } = opts;
  const cells = exerciseIds.map(
    (id, idx) => sql`(SELECT ${packedCell(idx)} FROM answers a
        WHERE a.exercise_id = ${id}::uuid AND a.user_id = p.id AND a.withdrawn_at IS NULL
        ORDER BY a.seq DESC, a.created_at DESC LIMIT 1)`,
  );
  const after = start === null ? sql`TRUE` : start.kind === 'names' ? afterNames(start.id) : sql`ps.number > ${start.number}`;
  const columns = sql`u.id, u.first_name, u.last_name, u.email, u.grade, u.gender, u.birth_date::text AS birth_date`;
  const picked = anonymous
    ? sql`SELECT ${columns}, ps.number, ps.copy_id FROM grading_pseudonyms ps JOIN users u ON u.id = ps.user_id
          WHERE ps.chapter_id = ${chapterId}::uuid AND ${inGradingTable(exerciseIds)} AND ${gradingSearch(opts.words, true)} AND ${after}
          ORDER BY ps.number LIMIT ${limit}`
    : sql`SELECT ${columns}, NULL::int AS number, NULL::uuid AS copy_id, ${lastKey} AS last_key, ${firstKey} AS first_key FROM users u
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
export function gradingCountsQuery(exerciseIds: readonly string[]): SQL {
  return sql`SELECT exercise_id, sum(answered)::int AS answered, sum(graded)::int AS graded
    FROM answer_counts WHERE exercise_id = ANY(${uuidArray(exerciseIds)}) GROUP BY exercise_id`;
}

/**
 * How many pupils the table and the search hold. The pupils of the chapter (chapter_pupils, kept by the
 * same triggers) are those of the table while no exercise outside the table (binned, or without answers
 * to grade) holds a current answer; otherwise, and only then, every pupil's answers are looked at.
 */
export function gradingPupilsQuery(chapterId: string, exerciseIds: readonly string[], anonymous: boolean, words: readonly string[]): SQL {
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

/**
 * The grading table's cells, one row per pupil with a current answer (grading/table.ts `TableRow`), run
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
        SELECT u.id, u.first_name, u.last_name, u.email, u.grade, u.gender, u.birth_date::text AS birth_date, agg.cells
        FROM agg JOIN users u ON u.id = agg.user_id
        ORDER BY ${lastKey}, ${firstKey}, u.id`;
}

/** Decision 139: the current copies of these exercises flagged « pages ajoutées après la note » (few: a partial index). */
export function pagesAddedOf(db: Tx, exerciseIds: readonly string[], userIds?: readonly string[]): Promise<Array<{ user_id: string; exercise_id: string }>> {
  return rows(
    db,
    sql`SELECT a.user_id, a.exercise_id FROM answers a
        WHERE a.exercise_id = ANY(${uuidArray(exerciseIds)}) AND a.pages_added_at IS NOT NULL AND ${isCurrent('a')}
          ${userIds ? sql`AND a.user_id = ANY(${uuidArray(userIds)})` : sql``}`,
  );
}

export interface ChapterOptionsRow {
  id: string;
  title: string;
  offline: boolean;
  analysis: boolean;
  /** Decision 69: the scheduled publication, epoch milliseconds (see isChapterPublished). */
  publish_ms: number | null;
  anonymous_grading: boolean;
  double_grading: boolean;
  grading_tolerance: number;
}

export const chapterOptionsColumns = sql`c.id, c.title, c.offline, c.analysis, (extract(epoch FROM c.publish_at) * 1000)::float8 AS publish_ms, c.anonymous_grading, c.double_grading, c.grading_tolerance`;

export interface GradingRow {
  id: string;
  answer_id: string;
  grader_id: string | null;
  first_name: string | null;
  last_name: string | null;
  grade: string | null;
  grade_comment: string;
  items: string[];
  arbitration: boolean;
  timestamp: string;
  ts_ms: number;
}

const gradingColumns = sql`g.id, g.answer_id, g.grader_id, u.first_name, u.last_name, g.grade, g.grade_comment, g.items,
  g.arbitration, ${isoMs(sql`g.updated_at`)} AS timestamp, (extract(epoch FROM g.updated_at) * 1000)::float8 AS ts_ms`;

/** The gradings of some answers, oldest first (first corrector, second, then the arbitration). */
export function gradingsOf(db: Tx, answerIds: readonly string[], lock = false): Promise<GradingRow[]> {
  if (answerIds.length === 0) return Promise.resolve([]);
  return rows<GradingRow>(
    db,
    sql`SELECT ${gradingColumns} FROM gradings g LEFT JOIN users u ON u.id = g.grader_id
        WHERE g.answer_id = ANY(${uuidArray(answerIds)})
        ORDER BY g.arbitration, g.created_at, g.id ${lock ? sql`FOR UPDATE OF g` : sql``}`,
  );
}

/** Writes one corrector's grading of an answer (insert or update), and returns its new version. */
export async function upsertGrading(
  db: Tx,
  g: { answerId: string; exerciseId: string; graderId: string; grade: string | null; comment: string; items: readonly string[]; arbitration: boolean; at: Date },
): Promise<string> {
  const [row] = await rows<{ timestamp: string }>(
    db,
    sql`INSERT INTO gradings (answer_id, exercise_id, grader_id, grade, grade_comment, items, arbitration, created_at, updated_at)
        VALUES (${g.answerId}::uuid, ${g.exerciseId}::uuid, ${g.graderId}::uuid, ${g.grade}, ${g.comment},
          ${`{${g.items.map((i) => `"${i}"`).join(',')}}`}::text[], ${g.arbitration}, ${g.at.toISOString()}::timestamptz, ${g.at.toISOString()}::timestamptz)
        ON CONFLICT (answer_id, grader_id, arbitration) DO UPDATE
          SET grade = EXCLUDED.grade, grade_comment = EXCLUDED.grade_comment, items = EXCLUDED.items, updated_at = EXCLUDED.updated_at
        RETURNING ${isoMs(sql`updated_at`)} AS timestamp`,
  );
  return row.timestamp;
}

/** Single correction: the copy's grade belongs to one corrector, so the others' rows of it go. */
export async function keepOnlyGrading(db: Tx, answerId: string, graderId: string): Promise<void> {
  await db.execute(sql`DELETE FROM gradings WHERE answer_id = ${answerId}::uuid AND (grader_id IS NULL OR grader_id <> ${graderId}::uuid)`);
}

export interface CurrentGradingsRow {
  answer_id: string;
  user_id: string;
  exercise_id: string;
  grade: string | null;
  grades: Array<string | null>;
  arbitrated: boolean;
  /** The copy's cell is not ' ' (graded, or something left once spaces are trimmed). */
  answered: boolean;
}

/**
 * Per current answer of the given exercises that has gradings: the graders' grades (first and
 * second, in order), whether an admin arbitrated, and the answer's settled grade.
 */
export function currentGradings(db: Tx, exerciseIds: readonly string[], userIds?: readonly string[]): Promise<CurrentGradingsRow[]> {
  if (exerciseIds.length === 0 || userIds?.length === 0) return Promise.resolve([]);
  // A page of the table (decision 83): only these pupils' answers, found by answers_user_exercise_idx.
  const ofUsers = userIds
    ? sql`AND g.answer_id IN (SELECT b.id FROM answers b WHERE b.user_id = ANY(${uuidArray(userIds)}) AND b.exercise_id = ANY(${uuidArray(exerciseIds)}))`
    : sql``;
  return rows<CurrentGradingsRow>(
    db,
    sql`SELECT a.id AS answer_id, a.user_id, a.exercise_id, a.grade,
          coalesce(array_agg(g.grade ORDER BY g.created_at, g.id) FILTER (WHERE NOT g.arbitration), '{}') AS grades,
          bool_or(g.arbitration) AS arbitrated,
          coalesce(bool_or(a.grade <> '' OR (${answeredSql})), false) AS answered
        FROM gradings g CROSS JOIN LATERAL (SELECT a.* FROM answers a WHERE a.id = g.answer_id AND ${isCurrent('a')}) a
        WHERE g.exercise_id = ANY(${uuidArray(exerciseIds)}) ${ofUsers}
        GROUP BY a.id, a.user_id, a.exercise_id, a.grade`,
  );
}

export interface CorrectorProgressRow {
  grader_id: string;
  first_name: string | null;
  last_name: string | null;
  copies: number;
  mean: number | null;
}

/** Per corrector: gradings given on the current copies of these exercises, and the mean of the numeric ones. */
export function correctorProgress(db: Tx, exerciseIds: readonly string[]): Promise<CorrectorProgressRow[]> {
  if (exerciseIds.length === 0) return Promise.resolve([]);
  return rows<CorrectorProgressRow>(
    db,
    // Driven by the gradings (LATERAL: one answer looked up by id each), never a scan of every answer.
    sql`SELECT g.grader_id, u.first_name, u.last_name, count(*)::int AS copies,
          avg(CASE WHEN g.grade ~ '^[0-9]+([.][0-9]+)?$' THEN g.grade::float8 END)::float8 AS mean
        FROM gradings g
        CROSS JOIN LATERAL (SELECT 1 FROM answers a WHERE a.id = g.answer_id AND ${isCurrent('a')}) cur
        JOIN users u ON u.id = g.grader_id
        WHERE g.exercise_id = ANY(${uuidArray(exerciseIds)}) AND NOT g.arbitration AND g.grader_id IS NOT NULL
        GROUP BY g.grader_id, u.first_name, u.last_name
        ORDER BY u.last_name, u.first_name, g.grader_id`,
  );
}

/** What a corrector of an anonymous chapter knows of a pupil's copy (decision 128): its pseudonym and its opaque id. */
export interface AnonymousCopy {
  pseudonym: string;
  copyId: string;
}

/**
 * The pseudonyms and copy ids of these pupils in a chapter (decisions 62 and 128): numbers are given
 * once, to the pupils who have none yet, in an order drawn from a hash of (pupil, chapter) so a number
 * says nothing of names or sign-up order; the copy id is random. An advisory lock keeps two readers from
 * giving one number twice.
 */
export async function pseudonymsFor(db: Tx, chapterId: string, userIds: readonly string[]): Promise<Map<string, AnonymousCopy>> {
  const result = new Map<string, AnonymousCopy>();
  if (userIds.length === 0) return result;
  const read = () =>
    rows<{ user_id: string; number: number; copy_id: string }>(
      db,
      sql`SELECT user_id, number, copy_id FROM grading_pseudonyms WHERE chapter_id = ${chapterId}::uuid AND user_id = ANY(${uuidArray(userIds)})`,
    );
  let found = await read();
  if (found.length < new Set(userIds).size) {
    const known = new Set(found.map((r) => r.user_id));
    const missing = [...new Set(userIds)].filter((id) => !known.has(id));
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`pseudonyms:${chapterId}`}))`);
      await tx.execute(sql`
        INSERT INTO grading_pseudonyms (chapter_id, user_id, number)
        SELECT ${chapterId}::uuid, m.id,
          coalesce((SELECT max(number) FROM grading_pseudonyms WHERE chapter_id = ${chapterId}::uuid), 0)
            + row_number() OVER (ORDER BY md5(m.id::text || ${chapterId}), m.id)
        FROM unnest(${uuidArray(missing)}) AS m(id)
        WHERE NOT EXISTS (SELECT 1 FROM grading_pseudonyms p WHERE p.chapter_id = ${chapterId}::uuid AND p.user_id = m.id)
        ON CONFLICT DO NOTHING`);
    });
    found = await read();
  }
  for (const r of found) result.set(r.user_id, { pseudonym: pseudonymOf(Number(r.number)), copyId: r.copy_id });
  return result;
}

/** The correctors assigned to each exercise that has any. */
export async function assignmentsOf(db: Tx, exerciseIds: readonly string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (exerciseIds.length === 0) return map;
  const list = await rows<{ exercise_id: string; user_id: string }>(
    db,
    sql`SELECT exercise_id, user_id FROM grading_assignments WHERE exercise_id = ANY(${uuidArray(exerciseIds)}) ORDER BY user_id`,
  );
  for (const r of list) map.set(r.exercise_id, [...(map.get(r.exercise_id) ?? []), r.user_id]);
  return map;
}

/** Members and admins, who may be given exercises to grade. */
export function listCorrectors(db: Tx): Promise<Array<{ id: string; first_name: string | null; last_name: string | null }>> {
  return rows(
    db,
    sql`SELECT u.id, u.first_name, u.last_name FROM users u
        WHERE u.is_admin OR EXISTS (SELECT 1 FROM group_members gm JOIN groups g ON g.id = gm.group_id
                                    WHERE gm.user_id = u.id AND g.system_key = 'members')
        ORDER BY u.last_name, u.first_name, u.id`,
  );
}

/** Replaces the assignments of a chapter's exercises. */
export async function replaceAssignments(db: Tx, exerciseIds: readonly string[], pairs: ReadonlyArray<{ exercise: string; user: string }>) {
  if (exerciseIds.length > 0) {
    await db.execute(sql`DELETE FROM grading_assignments WHERE exercise_id = ANY(${uuidArray(exerciseIds)})`);
  }
  if (pairs.length > 0) {
    await db.execute(sql`
      INSERT INTO grading_assignments (exercise_id, user_id)
      SELECT p.exercise_id, p.user_id FROM json_to_recordset(${JSON.stringify(pairs.map((p) => ({ exercise_id: p.exercise, user_id: p.user })))}::json)
        AS p(exercise_id uuid, user_id uuid)
      ON CONFLICT DO NOTHING`);
  }
}

/** « First Last », as the page writes a person (fullName); « Correction automatique » for no one. */
const personName = (alias: string) =>
  sql.raw(`btrim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, ''))`);
/** Who set answer `a`'s grade (`g`), as the page names them. */
const setterName = sql`CASE WHEN a.grader_id IS NULL THEN 'Correction automatique' ELSE ${personName('g')} END`;

export interface OverviewSelection {
  chapterId: string;
  exerciseIds: readonly string[];
  double: boolean;
  /** Under anonymous correction: joined to grading_pseudonyms as `ps`, which must hold every pupil. */
  anonymous: boolean;
  /** Whose gradings a filter may see (visibleGradings): an admin's every one. */
  viewer: { userId: string; isAdmin: boolean };
  /** Already normalised (normalizeText); '' filters nothing. */
  filters: { student: string; grader: string; exercise: string };
}

/**
 * The copies the overview lists (decision 94), as `FROM … WHERE …` over `a` (the answer), `e`, `s` (the
 * pupil), `g` (who set the grade) and `ps`: current answers of the chapter's exercises that are graded, or in
 * double correction that have a grading. The filters follow the page's: the pupil's « First Last » (or
 * pseudonym), the exercise's title, and for the corrector whoever set the grade (« Correction automatique »
 * for none) or any grading the viewer may see.
 */
export function overviewFrom(sel: OverviewSelection): SQL {
  const { student, grader, exercise } = sel.filters;
  const conditions: SQL[] = [
    sql`a.exercise_id = ANY(${uuidArray(sel.exerciseIds)})`,
    isCurrent('a'),
    sel.double
      ? sql`(a.grade_timestamp IS NOT NULL OR EXISTS (SELECT 1 FROM gradings gr WHERE gr.answer_id = a.id))`
      : sql`a.grade_timestamp IS NOT NULL`,
  ];
  if (student !== '') {
    conditions.push(sel.anonymous ? sql`${pseudonymText} LIKE ${likeAny(student)}` : sql`${folded(personName('s'))} LIKE ${likeAny(student)}`);
  }
  if (exercise !== '') conditions.push(sql`${folded(sql`e.title`)} LIKE ${likeAny(exercise)}`);
  if (grader !== '') {
    const setter = sql`${folded(setterName)} LIKE ${likeAny(grader)}`;
    if (sel.double) {
      // visibleGradings: a corrector sees another's grading once both are in (or an arbitration is).
      const visible = sel.viewer.isAdmin
        ? sql`TRUE`
        : sql`(gr.grader_id = ${sel.viewer.userId}::uuid OR (SELECT count(*) FILTER (WHERE NOT g2.arbitration) >= 2 OR bool_or(g2.arbitration)
              FROM gradings g2 WHERE g2.answer_id = a.id))`;
      conditions.push(sql`(${setter} OR EXISTS (SELECT 1 FROM gradings gr JOIN users gu ON gu.id = gr.grader_id
          WHERE gr.answer_id = a.id AND ${visible} AND ${folded(personName('gu'))} LIKE ${likeAny(grader)}))`);
    } else {
      conditions.push(setter);
    }
  }
  return sql`FROM answers a JOIN exercises e ON e.id = a.exercise_id JOIN users s ON s.id = a.user_id
      LEFT JOIN users g ON g.id = a.grader_id
      ${sel.anonymous ? sql`JOIN grading_pseudonyms ps ON ps.chapter_id = ${sel.chapterId}::uuid AND ps.user_id = a.user_id` : sql``}
      WHERE ${sql.join(conditions, sql` AND `)}`;
}

/** A grade as a number when it is one (« X » and the like sort after the numbers). */
const gradeNumber = sql`CASE WHEN a.grade ~ '^[0-9]+([.][0-9]+)?$' THEN a.grade::numeric END`;

/** The overview's order (decision 94): the asked column, empty last either way, then the answer's id. */
export function overviewOrder(sort: 'date' | 'student' | 'grader' | 'exercise' | 'grade', dir: 'asc' | 'desc', anonymous: boolean): SQL {
  const d = sql.raw(dir === 'asc' ? 'ASC' : 'DESC');
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

export interface OverviewPageRow {
  id: string;
  user_id: string;
  s_first: string | null;
  s_last: string | null;
  number: number | null;
  copy_id: string | null;
  grader_id: string | null;
  g_first: string | null;
  g_last: string | null;
  exercise_id: string;
  title: string;
  max_points: number;
  grade: string | null;
  grade_comment: string | null;
  grade_timestamp: string | null;
}

/** One page of the overview in the given order. */
export function overviewPageQuery(sel: OverviewSelection, order: SQL, limit: number, offset: number): SQL {
  return sql`SELECT a.id, a.user_id, s.first_name AS s_first, s.last_name AS s_last, ${sel.anonymous ? sql`ps.number` : sql`NULL::int`} AS number, ${sel.anonymous ? sql`ps.copy_id` : sql`NULL::uuid`} AS copy_id,
      a.grader_id, g.first_name AS g_first, g.last_name AS g_last, e.id AS exercise_id, e.title, e.max_points,
      a.grade, a.grade_comment, ${isoMs(sql`a.grade_timestamp`)} AS grade_timestamp
    ${overviewFrom(sel)}
    ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`;
}

/** How many copies the overview lists, and how many of them the filters keep. */
export function overviewCountQuery(sel: OverviewSelection): SQL {
  const all = overviewFrom({ ...sel, filters: { student: '', grader: '', exercise: '' } });
  const filtered = sel.filters.student !== '' || sel.filters.grader !== '' || sel.filters.exercise !== '';
  return filtered
    ? sql`SELECT (SELECT count(*) ${all})::int AS total, (SELECT count(*) ${overviewFrom(sel)})::int AS matched`
    : sql`SELECT count(*)::int AS total, count(*)::int AS matched ${all}`;
}
