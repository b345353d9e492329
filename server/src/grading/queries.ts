import { annotationSchema, CELL_NONE, CELL_UNGRADED, pseudonymOf, type Annotation } from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../db/client.js';
import { nameSortKey } from '../db/name-key.js';
import { column, one, rows } from '../db/query.js';
import { notFound } from '../errors.js';

/**
 * Named SQL shared by the grading use cases (decision 62: gradings, pseudonyms, progress), with the shapes of the
 * rows it returns: no rules here, each use case decides what to do with the rows.
 */

export const CHAPTER_NOT_FOUND = 'Chapitre introuvable.';
export const EXERCISE_NOT_FOUND = 'Exercice introuvable.';
export const COPY_NOT_FOUND = 'Copie introuvable.';
export const WITHDRAWN_MESSAGE = 'Cette copie a été renvoyée au triage : elle ne peut plus être notée.';

/** Timestamps travel as ISO text cut to the millisecond, so the conflict check compares what the client got. */
export const isoMs = (instant: SQL) =>
  sql`to_char(date_trunc('milliseconds', ${instant}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

/** The answer `a` is its pupil's current one for the exercise (highest seq, then latest, not withdrawn). */
export const isCurrent = sql`a.withdrawn_at IS NULL AND NOT EXISTS (
    SELECT 1 FROM answers b WHERE b.user_id = a.user_id AND b.exercise_id = a.exercise_id AND b.withdrawn_at IS NULL
      AND (b.seq, b.created_at, b.id) > (a.seq, a.created_at, a.id))`;

/** An answer `a` is answered: something left once spaces are trimmed (btrim only when it starts with one). */
export const answeredSql = sql`a.answer <> '' AND (NOT starts_with(a.answer, ' ') OR btrim(a.answer) <> '')`;

/**
 * The packed cell `idx:value` of answer `a` (the rule of `cellValue`; see gradingTableQuery). The three texts are
 * parameters, which the planner folds into constants of the statement (a custom plan for the values bound).
 */
export const packedCell = (idx: number) =>
  sql`CASE WHEN a.grade <> '' THEN ${`${idx}:`}::text || a.grade
            WHEN ${answeredSql} THEN ${`${idx}:${CELL_UNGRADED}`}::text
            ELSE ${`${idx}:${CELL_NONE}`}::text END`;

/** Pupil `u` has a current answer to one of these exercises: a row of the whole table. */
export const inGradingTable = (exerciseIds: readonly string[]) =>
  sql`EXISTS (SELECT 1 FROM answers a WHERE a.user_id = u.id AND a.exercise_id = ANY(${uuidArray(exerciseIds)}) AND a.withdrawn_at IS NULL)`;

/** The pupils' name keys (db/name-key.ts), as the index `users_name_key_idx` holds them. */
export const lastKey = nameSortKey(sql`u.last_name`);
export const firstKey = nameSortKey(sql`u.first_name`);

/** The pseudonym text of `ps.number`, lower case, as `pseudonymOf` writes it (« copie 0042 »). */
export const pseudonymText = sql`'copie ' || CASE WHEN ps.number >= 1000 THEN ps.number::text ELSE lpad(ps.number::text, 4, '0') END`;

/** A text as normalizeText folds it (NFD, marks dropped, lower case): the searches and filters compare these. */
export const folded = (text: SQL) => sql`regexp_replace(normalize(lower(${text}), NFD), ${'[\u0300-\u036f]'}, '', 'g')`;
/** A LIKE pattern holding `value` anywhere, its `%`, `_` and `\` taken literally. */
export const likeAny = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

/** One pupil as the table's queries return them: their current answers packed in `cells`. */
export const tableRowShape = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string(),
  grade: z.string().nullable(),
  gender: z.string().nullable(),
  birth_date: z.string().nullable(),
  /** `{index}:{cell value}` per exercise with a current answer (the rule of `cellValue`, applied in SQL), joined by U+001F (grades never hold it). */
  cells: z.string().nullable(),
});
export type TableRow = z.output<typeof tableRowShape>;

/** The pupil columns of a table row (`u`). */
export const tableUserColumns = sql`u.id, u.first_name, u.last_name, u.email, u.grade, u.gender, u.birth_date::text AS birth_date`;

/** An answer's grade block as read with `gradeStateColumns` (`a`, its grader `gu`). */
export const gradeStateShape = z.object({
  id: z.string(),
  grade: z.string().nullable(),
  grade_comment: z.string().nullable(),
  hidden: z.boolean(),
  grade_timestamp: z.string().nullable(),
  grader_id: z.string().nullable(),
  grader_first: z.string().nullable(),
  grader_last: z.string().nullable(),
});
export type GradeStateRow = z.output<typeof gradeStateShape>;

export const gradeStateColumns = sql`a.id, a.grade, a.grade_comment, a.hidden, ${isoMs(sql`a.grade_timestamp`)} AS grade_timestamp,
  a.grader_id, gu.first_name AS grader_first, gu.last_name AS grader_last`;

/** The chapter's grading options as every use case reads them. */
export const chapterOptionsShape = z.object({
  id: z.string(),
  title: z.string(),
  offline: z.boolean(),
  analysis: z.boolean(),
  /** Decision 69: the scheduled publication, epoch milliseconds (see isChapterPublished). */
  publish_ms: column.numberOrNull,
  anonymous_grading: z.boolean(),
  double_grading: z.boolean(),
  grading_tolerance: column.number,
});
export type ChapterOptionsRow = z.output<typeof chapterOptionsShape>;

export const chapterOptionsColumns = sql`c.id, c.title, c.offline, c.analysis, (extract(epoch FROM c.publish_at) * 1000)::float8 AS publish_ms, c.anonymous_grading, c.double_grading, c.grading_tolerance`;

/** The chapter's grading options (a missing or binned chapter: 404). */
export async function loadChapter(db: Tx, chapterId: string): Promise<ChapterOptionsRow> {
  const chapter = await one(
    db,
    chapterOptionsShape,
    sql`SELECT ${chapterOptionsColumns} FROM chapters c WHERE c.id = ${chapterId}::uuid AND c.deleted_at IS NULL`,
  );
  if (!chapter) throw notFound(CHAPTER_NOT_FOUND);
  return chapter;
}

const answerableShape = z.object({ id: z.string(), title: z.string(), answer_format: z.string(), max_points: column.number });
export type AnswerableExercise = z.output<typeof answerableShape>;

/** The answerable exercises of a chapter in table order (docs/product.md#spec-2: one column per exercise whose format is not none). */
export function answerableExercises(db: Tx, chapterId: string): Promise<AnswerableExercise[]> {
  return rows(
    db,
    answerableShape,
    sql`SELECT id, title, answer_format, max_points FROM exercises
        WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' AND deleted_at IS NULL
        ORDER BY position, created_at, id`,
  );
}

export const gradingShape = z.object({
  id: z.string(),
  answer_id: z.string(),
  grader_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  grade: z.string().nullable(),
  grade_comment: z.string(),
  items: z.array(z.string()),
  arbitration: z.boolean(),
  timestamp: z.string(),
  ts_ms: column.number,
});
export type GradingRow = z.output<typeof gradingShape>;

const gradingColumns = sql`g.id, g.answer_id, g.grader_id, u.first_name, u.last_name, g.grade, g.grade_comment, g.items,
  g.arbitration, ${isoMs(sql`g.updated_at`)} AS timestamp, (extract(epoch FROM g.updated_at) * 1000)::float8 AS ts_ms`;

/** The gradings of some answers, oldest first (first corrector, second, then the arbitration). */
export function gradingsOf(db: Tx, answerIds: readonly string[], lock = false): Promise<GradingRow[]> {
  if (answerIds.length === 0) return Promise.resolve([]);
  return rows(
    db,
    gradingShape,
    sql`SELECT ${gradingColumns} FROM gradings g LEFT JOIN users u ON u.id = g.grader_id
        WHERE g.answer_id = ANY(${uuidArray(answerIds)})
        ORDER BY g.arbitration, g.created_at, g.id ${lock ? sql`FOR UPDATE OF g` : sql``}`,
  );
}

/** The gradings of these answers grouped by answer. */
export async function gradingsByAnswer(db: Tx, answerIds: readonly string[]): Promise<Map<string, GradingRow[]>> {
  const byAnswer = new Map<string, GradingRow[]>();
  for (const g of await gradingsOf(db, answerIds)) byAnswer.set(g.answer_id, [...(byAnswer.get(g.answer_id) ?? []), g]);
  return byAnswer;
}

const textArray = (items: readonly string[]) => `{${items.map((i) => `"${i}"`).join(',')}}`;

/** Writes one corrector's grading of an answer (insert or update), and returns its new version. */
export async function upsertGrading(
  db: Tx,
  g: {
    answerId: string;
    exerciseId: string;
    graderId: string;
    grade: string | null;
    comment: string;
    items: readonly string[];
    arbitration: boolean;
    at: Date;
    /** Decisions 159–160: the marks and bank remarks, written in the same statement as the grade. */
    marks: Marks;
  },
): Promise<string> {
  const [row] = await rows(
    db,
    z.object({ timestamp: z.string() }),
    sql`INSERT INTO gradings (answer_id, exercise_id, grader_id, grade, grade_comment, items, arbitration, annotations, bank_comments,
          created_at, updated_at)
        VALUES (${g.answerId}::uuid, ${g.exerciseId}::uuid, ${g.graderId}::uuid, ${g.grade}, ${g.comment},
          ${textArray(g.items)}::text[], ${g.arbitration}, ${JSON.stringify(g.marks.annotations)}::jsonb,
          ${uuidArray(g.marks.bankComments)}, ${g.at.toISOString()}::timestamptz, ${g.at.toISOString()}::timestamptz)
        ON CONFLICT (answer_id, grader_id, arbitration) DO UPDATE
          SET grade = EXCLUDED.grade, grade_comment = EXCLUDED.grade_comment, items = EXCLUDED.items, updated_at = EXCLUDED.updated_at,
            annotations = EXCLUDED.annotations, bank_comments = EXCLUDED.bank_comments
        RETURNING ${isoMs(sql`updated_at`)} AS timestamp`,
  );
  return row.timestamp;
}

/** One grading's marks (decisions 159–160): its annotations and the bank remarks it applied. */
export interface Marks {
  annotations: Annotation[];
  bankComments: string[];
}

const marksShape = z.object({
  grader_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  arbitration: z.boolean(),
  annotations: z.array(annotationSchema),
  bank_comments: z.array(z.string()),
});
export type MarksRow = z.output<typeof marksShape>;

/** The marks of every grading of one copy, in the order of gradingsOf (first corrector, second, then the arbitration). */
export function marksOf(db: Tx, answerId: string): Promise<MarksRow[]> {
  return rows(
    db,
    marksShape,
    sql`SELECT g.grader_id, u.first_name, u.last_name, g.arbitration, g.annotations, g.bank_comments::text[] AS bank_comments
        FROM gradings g LEFT JOIN users u ON u.id = g.grader_id
        WHERE g.answer_id = ${answerId}::uuid
        ORDER BY g.arbitration, g.created_at, g.id`,
  );
}

/** Single correction: the copy's grade belongs to one corrector, so the others' rows of it go. */
export async function keepOnlyGrading(db: Tx, answerId: string, graderId: string): Promise<void> {
  await db.execute(sql`DELETE FROM gradings WHERE answer_id = ${answerId}::uuid AND (grader_id IS NULL OR grader_id <> ${graderId}::uuid)`);
}

/** One line of grade_audit: a grade, a corrector's grading or an arbitration, written by `graderId`. */
export interface GradeAuditEntry {
  old: string | null;
  new: string | null;
  oldComment: string | null;
  newComment: string;
  hidden: boolean;
  kind: 'grade' | 'grading' | 'arbitration';
  items: string[] | null;
}

export function appendGradeAudit(tx: Tx, graderId: string, answerId: string, e: GradeAuditEntry) {
  const items = e.items === null ? null : textArray(e.items);
  return tx.execute(sql`
    INSERT INTO grade_audit (answer_id, grader_id, old_grade, new_grade, old_comment, new_comment, hidden, kind, items)
    VALUES (${answerId}::uuid, ${graderId}::uuid, ${e.old}, ${e.new}, ${e.oldComment}, ${e.newComment}, ${e.hidden}, ${e.kind}, ${items}::text[])`);
}

/** The next version of a grade: now, moved forward even for two saves in the same millisecond. */
export const nextVersion = (previousMs: number | null | undefined) => new Date(Math.max(Date.now(), Math.floor(previousMs ?? 0) + 1));

const currentGradingsShape = z.object({
  answer_id: z.string(),
  user_id: z.string(),
  exercise_id: z.string(),
  grade: z.string().nullable(),
  grades: z.array(z.string().nullable()),
  arbitrated: z.boolean(),
  /** The copy's cell is not ' ' (graded, or something left once spaces are trimmed). */
  answered: z.boolean(),
});
export type CurrentGradingsRow = z.output<typeof currentGradingsShape>;

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
  return rows(
    db,
    currentGradingsShape,
    sql`SELECT a.id AS answer_id, a.user_id, a.exercise_id, a.grade,
          coalesce(array_agg(g.grade ORDER BY g.created_at, g.id) FILTER (WHERE NOT g.arbitration), '{}') AS grades,
          bool_or(g.arbitration) AS arbitrated,
          coalesce(bool_or(a.grade <> '' OR (${answeredSql})), false) AS answered
        FROM gradings g CROSS JOIN LATERAL (SELECT a.* FROM answers a WHERE a.id = g.answer_id AND ${isCurrent}) a
        WHERE g.exercise_id = ANY(${uuidArray(exerciseIds)}) ${ofUsers}
        GROUP BY a.id, a.user_id, a.exercise_id, a.grade`,
  );
}

const correctorProgressShape = z.object({
  grader_id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  copies: column.number,
  mean: column.numberOrNull,
});
export type CorrectorProgressRow = z.output<typeof correctorProgressShape>;

/** Per corrector: gradings given on the current copies of these exercises, and the mean of the numeric ones. */
export function correctorProgress(db: Tx, exerciseIds: readonly string[]): Promise<CorrectorProgressRow[]> {
  if (exerciseIds.length === 0) return Promise.resolve([]);
  return rows(
    db,
    correctorProgressShape,
    // Driven by the gradings (LATERAL: one answer looked up by id each), never a scan of every answer.
    sql`SELECT g.grader_id, u.first_name, u.last_name, count(*)::int AS copies,
          avg(CASE WHEN g.grade ~ '^[0-9]+([.][0-9]+)?$' THEN g.grade::float8 END)::float8 AS mean
        FROM gradings g
        CROSS JOIN LATERAL (SELECT 1 FROM answers a WHERE a.id = g.answer_id AND ${isCurrent}) cur
        JOIN users u ON u.id = g.grader_id
        WHERE g.exercise_id = ANY(${uuidArray(exerciseIds)}) AND NOT g.arbitration AND g.grader_id IS NOT NULL
        GROUP BY g.grader_id, u.first_name, u.last_name
        ORDER BY u.last_name, u.first_name, g.grader_id`,
  );
}

const flaggedShape = z.object({ user_id: z.string(), exercise_id: z.string() });

/** Decision 139: the current copies of these exercises flagged « pages ajoutées après la note » (few: a partial index). */
export function pagesAddedOf(
  db: Tx,
  exerciseIds: readonly string[],
  userIds?: readonly string[],
): Promise<Array<z.output<typeof flaggedShape>>> {
  return rows(
    db,
    flaggedShape,
    sql`SELECT a.user_id, a.exercise_id FROM answers a
        WHERE a.exercise_id = ANY(${uuidArray(exerciseIds)}) AND a.pages_added_at IS NOT NULL AND ${isCurrent}
          ${userIds ? sql`AND a.user_id = ANY(${uuidArray(userIds)})` : sql``}`,
  );
}

/** What a corrector of an anonymous chapter knows of a pupil's copy (decision 128): its pseudonym and its opaque id. */
export interface AnonymousCopy {
  pseudonym: string;
  copyId: string;
}

const pseudonymShape = z.object({ user_id: z.string(), number: column.number, copy_id: z.string() });

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
    rows(
      db,
      pseudonymShape,
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
  for (const r of found) result.set(r.user_id, { pseudonym: pseudonymOf(r.number), copyId: r.copy_id });
  return result;
}

/**
 * Pseudonyms are given to the whole table at once, as the whole table gives them (same numbers whichever
 * request comes first): every pupil with a current answer to one of these exercises has one after this.
 */
export async function giveTablePseudonyms(db: Tx, chapterId: string, exerciseIds: readonly string[]): Promise<void> {
  const missing = await rows(
    db,
    z.object({ id: z.string() }),
    sql`SELECT u.id FROM users u WHERE ${inGradingTable(exerciseIds)}
        AND NOT EXISTS (SELECT 1 FROM grading_pseudonyms ps WHERE ps.chapter_id = ${chapterId}::uuid AND ps.user_id = u.id)`,
  );
  if (missing.length > 0)
    await pseudonymsFor(
      db,
      chapterId,
      missing.map((m) => m.id),
    );
}
