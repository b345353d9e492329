import {
  CELL_NONE,
  CELL_UNGRADED,
  GRADE_CONFLICT_MESSAGE,
  GRADE_MESSAGE,
  NEWER_ANSWER_MESSAGE,
  normalizeGrade,
  type AnswerHistory,
  type AutoCorrectionResult,
  type GradeConflict,
  type GradeSaved,
  type GradeState,
  type GradingTable,
  type OverviewRow,
  type SelectedAnswer,
} from '@olympe/contract';
import { sql, type SQL } from 'drizzle-orm';
import { hasRole, type AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { pickVersionIndex } from '../exercises/versions.js';
import { autoGrade } from './autocorrect.js';
import { buildTableUsers, type TableRow } from './table.js';

/** A corrector who opened a copy holds it this long: "next copy" hands others a different one. */
export const CLAIM_MINUTES = 10;
const CHAPTER_NOT_FOUND = 'Chapitre introuvable.';
const EXERCISE_NOT_FOUND = 'Exercice introuvable.';
export const WITHDRAWN_MESSAGE = 'Cette copie a été renvoyée au triage : elle ne peut plus être notée.';

/** A constant of the statement's own text (never user input): folded once by the planner. */
const textLiteral = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`);

/** Timestamps travel as ISO text cut to the millisecond, so the conflict check compares what the client got. */
const isoMs = (column: SQL) =>
  sql`to_char(date_trunc('milliseconds', ${column}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

interface ChapterRow {
  id: string;
  title: string;
  offline: boolean;
  analysis: boolean;
}

async function loadChapter(db: Tx, chapterId: string): Promise<ChapterRow> {
  const [chapter] = await rows<ChapterRow>(
    db,
    sql`SELECT id, title, offline, analysis FROM chapters WHERE id = ${chapterId}::uuid`,
  );
  if (!chapter) throw notFound(CHAPTER_NOT_FOUND);
  return chapter;
}

/** The answerable exercises of a chapter in table order (SPEC §2: one column per exercise whose format is not none). */
async function answerableExercises(db: Tx, chapterId: string) {
  return rows<{ id: string; title: string; answer_format: string }>(
    db,
    sql`SELECT id, title, answer_format FROM exercises
        WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none'
        ORDER BY position, created_at, id`,
  );
}

/**
 * GET /answer/table/{id}: one query for the whole table. Per exercise, DISTINCT ON keeps the
 * current answer of each pupil (highest seq, then latest; withdrawn copies excluded) straight from
 * answers_current_idx (index-only once vacuumed), in user order; the branches are one UNION ALL that
 * PostgreSQL merges in user order (Merge Append), so the cells are grouped per pupil without a hash
 * table — hashing ~110,000 cells spilled to disk at the default work_mem and cost a third of the
 * query, hence `enable_hashagg = off` for this transaction only. The grouped cells are joined to the
 * pupils, sorted by last name. Each cell travels as its final value, `idx:value` joined by U+001F, one
 * text per pupil (cheaper to parse than arrays). The cell is the rule of `cellValue` written to be
 * cheap per index tuple: an ungraded or blank cell is a constant of the statement (no concatenation),
 * and btrim (which copies the answer and walks it character by character in UTF-8) only runs on an
 * answer that starts with a space: 4–8 ms less SQL. bench/grading: 10,000 × 12.
 */
export async function getGradingTable(db: Db, chapterId: string): Promise<GradingTable> {
  const chapter = await loadChapter(db, chapterId);
  const exercises = await answerableExercises(db, chapterId);
  let users: GradingTable['users'] = {};
  if (exercises.length > 0) {
    const branches = exercises.map(
      (exercise, idx) => sql`(
        SELECT DISTINCT ON (a.user_id) a.user_id,
          CASE WHEN a.grade <> '' THEN ${textLiteral(`${idx}:`)} || a.grade
            WHEN a.answer <> '' AND (NOT starts_with(a.answer, ' ') OR btrim(a.answer) <> '') THEN ${textLiteral(`${idx}:${CELL_UNGRADED}`)}
            ELSE ${textLiteral(`${idx}:${CELL_NONE}`)} END AS cell
        FROM answers a
        WHERE a.exercise_id = ${exercise.id}::uuid AND a.withdrawn_at IS NULL
        ORDER BY a.user_id, a.seq DESC, a.created_at DESC)`,
    );
    const table = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_hashagg = off`);
      return rows<TableRow>(
        tx,
        sql`
        WITH agg AS (
          SELECT user_id, string_agg(cell, E'\x1f') AS cells
          FROM (${sql.join(branches, sql` UNION ALL `)}) cur
          GROUP BY user_id
        )
        SELECT u.id, u.first_name, u.last_name, u.email, u.grade, u.gender, u.birth_date::text AS birth_date, agg.cells
        FROM agg JOIN users u ON u.id = agg.user_id
        ORDER BY u.last_name, u.first_name, u.id`,
      );
    });
    users = buildTableUsers(table, exercises.length);
  }
  return {
    chapter: { _id: chapter.id, title: chapter.title, offline: chapter.offline, analysis: chapter.analysis },
    exercises: exercises.map((e) => ({ _id: e.id, title: e.title, answerFormat: e.answer_format })),
    users,
  };
}

/**
 * Holds an answer for the corrector (grading_claims): taken only if free, already theirs, or held
 * by someone else for more than CLAIM_MINUTES. A corrector holds one copy at a time.
 */
async function claimAnswer(db: Tx, userId: string, answerId: string): Promise<boolean> {
  const claimed = await rows<{ answer_id: string }>(
    db,
    sql`
    INSERT INTO grading_claims (answer_id, user_id, claimed_at) VALUES (${answerId}::uuid, ${userId}::uuid, now())
    ON CONFLICT (answer_id) DO UPDATE SET user_id = EXCLUDED.user_id, claimed_at = EXCLUDED.claimed_at
      WHERE grading_claims.user_id = EXCLUDED.user_id
         OR grading_claims.claimed_at <= now() - make_interval(mins => ${CLAIM_MINUTES})
    RETURNING answer_id`,
  );
  if (claimed.length === 0) return false;
  await db.execute(sql`DELETE FROM grading_claims WHERE user_id = ${userId}::uuid AND answer_id <> ${answerId}::uuid`);
  return true;
}

/**
 * GET /answer/select/{exerciseId}: the oldest current answer that is answered and not graded,
 * and not opened by another corrector in the last 10 minutes; it is then held for the caller.
 * Two correctors asking together get different copies (the claim is an upsert on the answer id).
 */
export async function selectNextAnswer(db: Db, auth: AuthContext, exerciseId: string): Promise<SelectedAnswer> {
  const [exercise] = await rows<{ id: string; answer_format: string }>(
    db,
    sql`SELECT id, answer_format FROM exercises WHERE id = ${exerciseId}::uuid`,
  );
  if (!exercise) throw notFound(EXERCISE_NOT_FOUND);
  if (exercise.answer_format === 'none') throw badRequest('Cet exercice n’attend pas de réponse.');
  for (let attempt = 0; attempt < 3; attempt++) {
    const candidates = await rows<{ id: string; user_id: string }>(
      db,
      sql`
      WITH cur AS (
        SELECT DISTINCT ON (a.user_id) a.id, a.user_id, a.answer, a.grade, a.created_at
        FROM answers a
        WHERE a.exercise_id = ${exerciseId}::uuid AND a.withdrawn_at IS NULL
        ORDER BY a.user_id, a.seq DESC, a.created_at DESC
      )
      SELECT cur.id, cur.user_id FROM cur
      WHERE cur.grade IS NULL AND btrim(cur.answer) <> ''
        AND NOT EXISTS (
          SELECT 1 FROM grading_claims g
          WHERE g.answer_id = cur.id AND g.user_id <> ${auth.userId}::uuid
            AND g.claimed_at > now() - make_interval(mins => ${CLAIM_MINUTES}))
      ORDER BY cur.created_at, cur.id
      LIMIT 5`,
    );
    if (candidates.length === 0) break;
    for (const c of candidates) {
      if (await claimAnswer(db, auth.userId, c.id)) return { url: `${c.user_id}/${exerciseId}` };
    }
  }
  return { message: 'Aucune copie à corriger pour cet exercice : toutes sont corrigées ou en cours de correction.' };
}

interface AnswerRow {
  id: string;
  grade: string | null;
  grade_comment: string | null;
  hidden: boolean;
  grade_timestamp: string | null;
  grader_id: string | null;
  grader_first: string | null;
  grader_last: string | null;
}

const stateColumns = sql`a.id, a.grade, a.grade_comment, a.hidden, ${isoMs(sql`a.grade_timestamp`)} AS grade_timestamp,
  a.grader_id, gu.first_name AS grader_first, gu.last_name AS grader_last`;

function presentState(a: AnswerRow): GradeState & { answerId: string } {
  return {
    answerId: a.id,
    grade: a.grade,
    grade_comment: a.grade_comment ?? '',
    hidden: a.hidden,
    grade_timestamp: a.grade_timestamp,
    grader: a.grader_id ? { _id: a.grader_id, firstName: a.grader_first, lastName: a.grader_last } : null,
  };
}

/**
 * GET /answer/history/{uid}/{eid}: the pupil's answers to the exercise (newest first) and the grade
 * block of the current one. Members and admins: any pupil, the full block (an empty one when not
 * graded yet). A pupil: only their own history, and only grade and comment once results are
 * published (SPEC §6); another pupil's is 403.
 */
export async function getAnswerHistory(db: Db, auth: AuthContext, userId: string, exerciseId: string): Promise<AnswerHistory> {
  const staff = hasRole(auth, 'member');
  if (!staff && auth.userId !== userId) throw forbidden();
  const [head] = await rows<{
    user_id: string | null;
    first_name: string | null;
    last_name: string | null;
    exercise_id: string;
    title: string;
    answer_format: string;
    chapter_id: string;
    chapter_title: string;
    analysis: boolean;
  }>(
    db,
    sql`SELECT u.id AS user_id, u.first_name, u.last_name, e.id AS exercise_id, e.title, e.answer_format,
          c.id AS chapter_id, c.title AS chapter_title, c.analysis
        FROM exercises e JOIN chapters c ON c.id = e.chapter_id LEFT JOIN users u ON u.id = ${userId}::uuid
        WHERE e.id = ${exerciseId}::uuid`,
  );
  if (!head) throw notFound(EXERCISE_NOT_FOUND);
  if (!head.user_id) throw notFound('Élève introuvable.');
  const history = await rows<AnswerRow & { answer: string; timestamp: string }>(
    db,
    sql`SELECT ${stateColumns}, a.answer, ${isoMs(sql`a.created_at`)} AS timestamp
        FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id
        WHERE a.user_id = ${userId}::uuid AND a.exercise_id = ${exerciseId}::uuid AND a.withdrawn_at IS NULL
        ORDER BY a.seq DESC, a.created_at DESC`,
  );
  const current = history[0];
  let result: GradeState | null = null;
  if (current && staff) {
    result = presentState(current);
    if (current.grade === null) await claimAnswer(db, auth.userId, current.id);
  } else if (current && head.analysis) {
    // Allow-list for pupils: never the grader, the hidden flag or the version.
    result = { grade: current.grade, grade_comment: current.grade_comment ?? '' };
  }
  return {
    user: { _id: head.user_id, firstName: head.first_name, lastName: head.last_name },
    exercise: {
      _id: head.exercise_id,
      title: head.title,
      answerFormat: head.answer_format,
      chapter: head.chapter_id,
      chapterTitle: head.chapter_title,
    },
    answers: history.map((a) => ({ _id: a.id, answer: a.answer, timestamp: a.timestamp })),
    result,
    canGrade: staff,
  };
}

export interface GradeInput {
  answerId: string;
  grade: string | number | null;
  grade_comment: string | null;
  hidden: boolean;
  expectedGradeTimestamp: string | null;
}

export type GradeOutcome = { ok: true; saved: GradeSaved } | { ok: false; conflict: GradeConflict };

/**
 * POST /answer/grade: writes the grade on the answer row and appends to grade_audit, in one
 * transaction holding the row lock. The corrector sends the grade_timestamp they started from:
 * if the copy changed since (another corrector saved), nothing is written and the current state
 * comes back (409) — the later save wins only when made from the latest state, never silently.
 */
export async function saveGrade(db: Db, auth: AuthContext, input: GradeInput): Promise<GradeOutcome> {
  const grade = normalizeGrade(input.grade);
  if (grade === undefined) throw badRequest(GRADE_MESSAGE);
  const comment = input.grade_comment ?? '';
  const expected = input.expectedGradeTimestamp === null ? null : new Date(input.expectedGradeTimestamp).toISOString();
  return db.transaction(async (tx) => {
    const [row] = await rows<
      AnswerRow & { user_id: string; exercise_id: string; withdrawn: boolean; current_id: string | null; ts_ms: number | null }
    >(
      tx,
      sql`SELECT ${stateColumns}, a.user_id, a.exercise_id, a.withdrawn_at IS NOT NULL AS withdrawn,
            (extract(epoch FROM a.grade_timestamp) * 1000)::float8 AS ts_ms,
            (SELECT b.id FROM answers b
             WHERE b.user_id = a.user_id AND b.exercise_id = a.exercise_id AND b.withdrawn_at IS NULL
             ORDER BY b.seq DESC, b.created_at DESC LIMIT 1) AS current_id
          FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id
          WHERE a.id = ${input.answerId}::uuid
          FOR UPDATE OF a`,
    );
    if (!row) throw notFound('Copie introuvable.');
    if (row.withdrawn) throw badRequest(WITHDRAWN_MESSAGE);
    if (row.current_id !== row.id) {
      const [current] = await rows<AnswerRow>(
        tx,
        sql`SELECT ${stateColumns} FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id WHERE a.id = ${row.current_id}::uuid`,
      );
      return { ok: false, conflict: { message: NEWER_ANSWER_MESSAGE, current: presentState(current ?? row) } };
    }
    if (row.grade_timestamp !== expected) {
      return { ok: false, conflict: { message: GRADE_CONFLICT_MESSAGE, current: presentState(row) } };
    }
    const unchanged = row.grade === grade && (row.grade_comment ?? '') === comment && row.hidden === input.hidden;
    if (unchanged) {
      return {
        ok: true,
        saved: { answerId: row.id, grade, grade_comment: comment, hidden: row.hidden, grade_timestamp: row.grade_timestamp ?? '' },
      };
    }
    // The version moves forward even for two saves in the same millisecond.
    const now = new Date(Math.max(Date.now(), Math.floor(row.ts_ms ?? 0) + 1));
    const [updated] = await rows<{ grade_timestamp: string }>(
      tx,
      sql`UPDATE answers SET grade = ${grade}, grade_comment = ${comment}, hidden = ${input.hidden},
            grader_id = ${auth.userId}::uuid, grade_timestamp = ${now.toISOString()}::timestamptz
          WHERE id = ${row.id}::uuid
          RETURNING ${isoMs(sql`grade_timestamp`)} AS grade_timestamp`,
    );
    await tx.execute(sql`
      INSERT INTO grade_audit (answer_id, grader_id, old_grade, new_grade, old_comment, new_comment, hidden)
      VALUES (${row.id}::uuid, ${auth.userId}::uuid, ${row.grade}, ${grade}, ${row.grade_comment}, ${comment}, ${input.hidden})`);
    return {
      ok: true,
      saved: { answerId: row.id, grade, grade_comment: comment, hidden: input.hidden, grade_timestamp: updated.grade_timestamp },
    };
  });
}

/** GET /answer/overview/{chapterId}: the graded current answers of the chapter, latest first. */
export async function listOverview(db: Db, chapterId: string): Promise<OverviewRow[]> {
  await loadChapter(db, chapterId);
  const list = await rows<{
    id: string;
    user_id: string;
    s_first: string | null;
    s_last: string | null;
    grader_id: string | null;
    g_first: string | null;
    g_last: string | null;
    exercise_id: string;
    title: string;
    grade: string | null;
    grade_comment: string | null;
    grade_timestamp: string | null;
  }>(
    db,
    sql`
    WITH cur AS (
      SELECT DISTINCT ON (a.user_id, a.exercise_id) a.*
      FROM answers a JOIN exercises e ON e.id = a.exercise_id
      WHERE e.chapter_id = ${chapterId}::uuid AND a.withdrawn_at IS NULL
      ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC
    )
    SELECT cur.id, cur.user_id, s.first_name AS s_first, s.last_name AS s_last,
      cur.grader_id, g.first_name AS g_first, g.last_name AS g_last,
      e.id AS exercise_id, e.title, cur.grade, cur.grade_comment, ${isoMs(sql`cur.grade_timestamp`)} AS grade_timestamp
    FROM cur JOIN users s ON s.id = cur.user_id JOIN exercises e ON e.id = cur.exercise_id
    LEFT JOIN users g ON g.id = cur.grader_id
    WHERE cur.grade_timestamp IS NOT NULL
    ORDER BY cur.grade_timestamp DESC, cur.id`,
  );
  return list.map((r) => ({
    _id: r.id,
    student: { _id: r.user_id, firstName: r.s_first, lastName: r.s_last },
    grader: r.grader_id ? { _id: r.grader_id, firstName: r.g_first, lastName: r.g_last } : null,
    exercise: { _id: r.exercise_id, title: r.title },
    grade: r.grade,
    grade_comment: r.grade_comment,
    grade_timestamp: r.grade_timestamp,
  }));
}

/** GET /answer/unlabeled/stats/{id}: scanned copies of the chapter still to sort. */
export async function countUnlabeled(db: Db, chapterId: string): Promise<{ count: number }> {
  await loadChapter(db, chapterId);
  const [row] = await rows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM unlabeled_answers WHERE chapter_id = ${chapterId}::uuid AND labeled_at IS NULL`,
  );
  return { count: Number(row.count) };
}

const AUTO_BATCH = 5_000;

/**
 * POST /answer/auto/{chapterId} (DESIGN §3 Auto-correction): every numeric exercise's current
 * answer against the pupil's version's expected answer: 1 correct, 0 wrong, empty untouched.
 * Never overwrites a person's grade: only ungraded answers and earlier automatic grades (grader
 * null) are written, and the UPDATE re-checks it, so a corrector saving meanwhile wins. Each
 * change is audited under the admin who ran it.
 */
export async function autoCorrectChapter(db: Db, auth: AuthContext, chapterId: string): Promise<AutoCorrectionResult> {
  await loadChapter(db, chapterId);
  const versions = await rows<{ exercise_id: string; answers: Array<string | null> }>(
    db,
    sql`SELECT e.id AS exercise_id, array_agg(v.answer ORDER BY v.position, v.id) AS answers
        FROM exercises e JOIN statement_versions v ON v.exercise_id = e.id
        WHERE e.chapter_id = ${chapterId}::uuid AND e.answer_format = 'numeric'
        GROUP BY e.id`,
  );
  const expectedOf = new Map(versions.map((v) => [v.exercise_id, v.answers]));
  if (expectedOf.size === 0) {
    return { message: 'Correction automatique : ce chapitre n’a pas d’exercice numérique.', graded: 0, unchanged: 0 };
  }
  const ids = [...expectedOf.keys()];
  const current = await rows<{ id: string; user_id: string; exercise_id: string; answer: string; grade: string | null }>(
    db,
    sql`
    SELECT id, user_id, exercise_id, answer, grade FROM (
      SELECT DISTINCT ON (a.user_id, a.exercise_id) a.id, a.user_id, a.exercise_id, a.answer, a.grade, a.grader_id
      FROM answers a
      WHERE a.exercise_id = ANY(${`{${ids.join(',')}}`}::uuid[]) AND a.withdrawn_at IS NULL
      ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC
    ) cur
    WHERE cur.grade IS NULL OR cur.grader_id IS NULL`,
  );
  const changes: Array<{ id: string; old: string | null; new: string }> = [];
  for (const a of current) {
    const answers = expectedOf.get(a.exercise_id)!;
    const expected = answers[pickVersionIndex(a.user_id, a.exercise_id, answers.length)] ?? null;
    const grade = autoGrade(a.answer, expected);
    if (grade !== null && grade !== a.grade) changes.push({ id: a.id, old: a.grade, new: grade });
  }
  const now = new Date().toISOString();
  let graded = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < changes.length; i += AUTO_BATCH) {
      const batch = JSON.stringify(changes.slice(i, i + AUTO_BATCH));
      const [res] = await rows<{ n: number }>(
        tx,
        sql`
        WITH v AS (SELECT * FROM json_to_recordset(${batch}::json) AS v(id uuid, old text, new text)),
        upd AS (
          UPDATE answers a SET grade = v.new, grader_id = NULL, grade_timestamp = ${now}::timestamptz
          FROM v
          WHERE a.id = v.id AND a.grade IS NOT DISTINCT FROM v.old AND (a.grade IS NULL OR a.grader_id IS NULL)
          RETURNING a.id, v.old, v.new, a.grade_comment, a.hidden
        ), ins AS (
          INSERT INTO grade_audit (answer_id, grader_id, old_grade, new_grade, old_comment, new_comment, hidden)
          SELECT id, ${auth.userId}::uuid, old, new, grade_comment, grade_comment, hidden FROM upd
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM ins`,
      );
      graded += Number(res.n);
    }
  });
  const copies = graded > 1 ? 'copies notées' : 'copie notée';
  return { message: `Correction automatique terminée : ${graded} ${copies}.`, graded, unchanged: current.length - graded };
}
