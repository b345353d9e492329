import {
  CELL_ARBITRATION,
  cellNumber,
  GRADE_CONFLICT_MESSAGE,
  GRADE_MESSAGE,
  GRADE_NEGATIVE_MESSAGE,
  GRADING_UNKNOWN_AFTER_MESSAGE,
  normalizeText,
  pseudonymOf,
  gradeAboveMaxMessage,
  gradeFromItems,
  NEWER_ANSWER_MESSAGE,
  normalizeGrade,
  NOT_ASSIGNED_MESSAGE,
  PAGES_ADDED_DISMISSED_MESSAGE,
  sumPoints,
  type AnswerHistory,
  type ArbitrationRow,
  type Desk,
  type DoubleStatus,
  type GradingView,
  type Person,
  type SchemeItem,
  type AutoCorrectionResult,
  type GradeConflict,
  type GradeSaved,
  type GradeState,
  type GradingTable,
  type OverviewRow,
  type SelectedAnswer,
} from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { hasRole, type AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { audit } from '../db/audit.js';
import { badRequest, notFound } from '../errors.js';
import { pickVersionIndex } from '../exercises/versions.js';
import { autoGrade } from './autocorrect.js';
import { isChapterPublished } from '../chapters/publication.js';
import { deskRole, doubleFinal, doubleStatus, visibleGradings } from './double.js';
import { assertMaySeeHistory, canTakeCopies } from './policies.js';
import {
  assignmentsOf,
  chapterOptionsColumns,
  correctorProgress,
  currentGradings,
  gradingCountsQuery,
  gradingPupilsQuery,
  gradingPageQuery,
  gradingTableQuery,
  gradingsOf,
  inGradingTable,
  isoMs,
  keepOnlyGrading,
  pagesAddedOf,
  pseudonymsFor,
  upsertGrading,
  type ChapterOptionsRow,
  type CorrectorProgressRow,
  type CurrentGradingsRow,
  type GradingRow,
  type OverviewPageRow,
  type PageStart,
} from './queries.js';
import {
  anonymiseTableUser,
  anonymiseTableUsers,
  buildTableUsers,
  cellsToData,
  markPagesAdded,
  presentTableUser,
  progressFromCounts,
  tableProgress,
  type TableRow,
} from './table.js';

/** A corrector who opened a copy holds it this long: "next copy" hands others a different one. */
export const CLAIM_MINUTES = 10;
const CHAPTER_NOT_FOUND = 'Chapitre introuvable.';
const EXERCISE_NOT_FOUND = 'Exercice introuvable.';
const BOTH_GRADED_MESSAGE = 'Cette copie a déjà ses deux corrections : seul un administrateur peut encore la trancher.';
export const WITHDRAWN_MESSAGE = 'Cette copie a été renvoyée au triage : elle ne peut plus être notée.';

export async function loadChapter(db: Tx, chapterId: string): Promise<ChapterOptionsRow> {
  const [chapter] = await rows<ChapterOptionsRow>(db, sql`SELECT ${chapterOptionsColumns} FROM chapters c WHERE c.id = ${chapterId}::uuid AND c.deleted_at IS NULL`);
  if (!chapter) throw notFound(CHAPTER_NOT_FOUND);
  return chapter;
}

/**
 * Anonymous correction (decision 62): in an anonymous chapter, a caller who is
 * not an admin gets pseudonyms and no name, e-mail, school, gender or birth date of pupils.
 */
export const seesPseudonyms = (auth: AuthContext, chapter: Pick<ChapterOptionsRow, 'anonymous_grading'>) =>
  chapter.anonymous_grading && !auth.isAdmin;

/** A pupil as a grading response names them: names, or only the pseudonym. */
export function presentStudent(id: string, first: string | null, last: string | null, pseudonym: string | undefined): Person {
  return pseudonym === undefined ? { _id: id, firstName: first, lastName: last } : { _id: id, firstName: null, lastName: null, pseudonym };
}

export const presentGrading = (g: GradingRow): GradingView => ({
  grader: g.grader_id ? { _id: g.grader_id, firstName: g.first_name, lastName: g.last_name } : null,
  grade: g.grade,
  grade_comment: g.grade_comment,
  items: g.items ?? [],
  timestamp: g.timestamp,
  arbitration: g.arbitration,
});

/** The answerable exercises of a chapter in table order (docs/product.md#spec-2: one column per exercise whose format is not none). */
async function answerableExercises(db: Tx, chapterId: string) {
  return rows<{ id: string; title: string; answer_format: string; max_points: number }>(
    db,
    sql`SELECT id, title, answer_format, max_points FROM exercises
        WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' AND deleted_at IS NULL
        ORDER BY position, created_at, id`,
  );
}

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
          return rows<TableRow>(tx, gradingTableQuery(exerciseIds));
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
  if (seesPseudonyms(auth, chapter)) users = anonymiseTableUsers(users, await pseudonymsFor(db, chapterId, Object.keys(users)));
  return { ...presentTableHead(chapter, exercises), progress, correctors: presentCorrectors(progressRows, auth), users };
}

type TableExercise = { id: string; title: string; answer_format: string; max_points: number };

/** The chapter and its answerable exercises in one round trip (a missing chapter: 404). */
async function loadTableHead(db: Db, chapterId: string): Promise<{ chapter: ChapterOptionsRow; exercises: TableExercise[] }> {
  const [head] = await rows<ChapterOptionsRow & { exercises: TableExercise[] }>(
    db,
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
function doubleCopies(found: readonly CurrentGradingsRow[], exerciseIds: readonly string[], tolerance: number) {
  const index = new Map(exerciseIds.map((id, i) => [id, i]));
  return found.map((g) => {
    const graded = g.grades.filter((x) => x !== null);
    const status = g.arbitrated ? 'arbitrated' : doubleStatus(graded.map((grade) => ({ grader_id: null, grade, arbitration: false })), tolerance);
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

/**
 * The per-corrector lines of the table (decision 129): an admin reads every corrector's count and mean; a
 * corrector only their own, so that under blind double marking no difference of sums gives away a grade
 * still hidden from them.
 */
const presentCorrectors = (progressRows: readonly CorrectorProgressRow[], auth: AuthContext): NonNullable<GradingTable['correctors']> =>
  progressRows.filter((c) => auth.isAdmin || c.grader_id === auth.userId).map((c) => ({
    corrector: { _id: c.grader_id, firstName: c.first_name, lastName: c.last_name },
    copies: Number(c.copies),
    meanGrade: c.mean === null ? null : Math.round(Number(c.mean) * 100) / 100,
  }));

function presentTableHead(chapter: ChapterOptionsRow, exercises: readonly TableExercise[]): Pick<GradingTable, 'chapter' | 'exercises' | 'maxTotal'> {
  return {
    chapter: {
      _id: chapter.id,
      title: chapter.title,
      offline: chapter.offline,
      analysis: isChapterPublished({ analysis: chapter.analysis, publishAt: chapter.publish_ms }),
      anonymousGrading: chapter.anonymous_grading,
      doubleGrading: chapter.double_grading,
      gradingTolerance: chapter.grading_tolerance,
    },
    exercises: exercises.map((e) => ({ _id: e.id, title: e.title, answerFormat: e.answer_format, maxPoints: e.max_points })),
    maxTotal: sumPoints(exercises.map((e) => e.max_points)),
  };
}

/**
 * Pseudonyms are given to the whole table at once, as the whole table gives them (same numbers whichever
 * request comes first): every pupil with a current answer to one of these exercises has one after this.
 */
export async function giveTablePseudonyms(db: Db, chapterId: string, exerciseIds: readonly string[]): Promise<void> {
  const missing = await rows<{ id: string }>(
    db,
    sql`SELECT u.id FROM users u WHERE ${inGradingTable(exerciseIds)}
        AND NOT EXISTS (SELECT 1 FROM grading_pseudonyms ps WHERE ps.chapter_id = ${chapterId}::uuid AND ps.user_id = u.id)`,
  );
  if (missing.length > 0) await pseudonymsFor(db, chapterId, missing.map((m) => m.id));
}

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
  const anonymous = seesPseudonyms(auth, chapter);
  const words = normalizeText(params.q ?? '').split(' ').filter(Boolean);
  const header = params.limit === 0;
  if (exercises.length === 0) {
    if (params.after !== undefined) throw badRequest(GRADING_UNKNOWN_AFTER_MESSAGE);
    return header
      ? { ...head, progress: [], correctors: [], users: {}, page: { next: null, pupils: 0, matched: 0, counts: [] } }
      : { ...head, users: {}, page: { next: null } };
  }
  if (anonymous) await giveTablePseudonyms(db, chapterId, exerciseIds);
  let start: PageStart = null;
  if (params.after !== undefined) {
    const [cursor] = anonymous
      ? await rows<{ number: number }>(db, sql`SELECT number FROM grading_pseudonyms WHERE chapter_id = ${chapterId}::uuid AND copy_id = ${params.after}::uuid`)
      : await rows<{ id: string }>(db, sql`SELECT id FROM users WHERE id = ${params.after}::uuid`);
    if (!cursor) throw badRequest(GRADING_UNKNOWN_AFTER_MESSAGE);
    start =
      'number' in cursor
        ? { kind: 'pseudonyms', number: Number(cursor.number) }
        : { kind: 'names', id: params.after };
  }
  if (header) {
    const summary = await pageSummary(db, auth, chapterId, exerciseIds, anonymous, words, chapter);
    return { ...head, progress: summary.progress, correctors: summary.correctors, users: {}, page: { next: null, ...summary.page } };
  }
  const found = await rows<TableRow & { number: number | null; copy_id: string | null }>(
    db,
    gradingPageQuery({ chapterId, exerciseIds, anonymous, start, words, limit: params.limit + 1 }),
  );
  const more = found.length > params.limit;
  const shown = more ? found.slice(0, params.limit) : found;
  // Under anonymous correction a row is keyed by its copy's opaque id, never the pupil's (decision 128).
  const keyOf = new Map(shown.map((row) => [row.id, anonymous ? row.copy_id! : row.id]));
  const users: GradingTable['users'] = {};
  for (const row of shown) {
    const user = presentTableUser(row, cellsToData(row.cells, exercises.length));
    users[keyOf.get(row.id)!] = anonymous ? anonymiseTableUser(user, pseudonymOf(Number(row.number))) : user;
  }
  if (chapter.double_grading && shown.length > 0) {
    const ids = shown.map((r) => r.id);
    for (const g of doubleCopies(await currentGradings(db, exerciseIds, ids), exerciseIds, chapter.grading_tolerance)) {
      const user = users[keyOf.get(g.user_id) ?? ''];
      if (g.awaitsArbitration && user) user.data[g.exerciseIndex] = CELL_ARBITRATION;
    }
  }
  if (shown.length > 0) {
    const flagged = await pagesAddedOf(db, exerciseIds, shown.map((r) => r.id));
    markPagesAdded(users, flagged.map((f) => ({ ...f, user_id: keyOf.get(f.user_id)! })), exerciseIds);
  }
  return { ...head, users, page: { next: more ? keyOf.get(shown[shown.length - 1].id)! : null } };
}

/** What the header of a paged table needs (`limit=0`, decision 83). */
async function pageSummary(db: Db, auth: AuthContext, chapterId: string, exerciseIds: readonly string[], anonymous: boolean, words: readonly string[], chapter: ChapterOptionsRow) {
  const [counts, pupils, progressRows, graded] = await Promise.all([
    rows<{ exercise_id: string; answered: number; graded: number }>(db, gradingCountsQuery(exerciseIds)),
    rows<{ pupils: number; matched: number }>(db, gradingPupilsQuery(chapterId, exerciseIds, anonymous, words)),
    correctorProgress(db, exerciseIds),
    chapter.double_grading ? currentGradings(db, exerciseIds) : Promise.resolve(null),
  ]);
  const byIndex = exerciseIds.map((id) => counts.find((c) => c.exercise_id === id) ?? { answered: 0, graded: 0 });
  const { progress, counts: headerCounts } = progressFromCounts(
    byIndex.map((c) => ({ answered: Number(c.answered), graded: Number(c.graded) })),
    exerciseIds,
    graded ? doubleCopies(graded, exerciseIds, chapter.grading_tolerance) : null,
  );
  return {
    progress,
    correctors: presentCorrectors(progressRows, auth),
    page: { pupils: Number(pupils[0]?.pupils ?? 0), matched: Number(pupils[0]?.matched ?? 0), counts: headerCounts },
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
 * Opening a copy (GET /answer/history) holds it like « Copie suivante » does, but only when the
 * corrector holds no other copy still in time: a read never moves a hold the next-copy flow gave, and
 * never takes a copy another corrector holds. Returns whether the caller now holds it.
 */
async function holdIfIdle(db: Tx, userId: string, answerId: string): Promise<boolean> {
  const held = await rows<{ answer_id: string }>(
    db,
    sql`
    INSERT INTO grading_claims (answer_id, user_id, claimed_at)
    SELECT ${answerId}::uuid, ${userId}::uuid, now()
    WHERE NOT EXISTS (
      SELECT 1 FROM grading_claims o
      WHERE o.user_id = ${userId}::uuid AND o.answer_id <> ${answerId}::uuid
        AND o.claimed_at > now() - make_interval(mins => ${CLAIM_MINUTES}))
    ON CONFLICT (answer_id) DO UPDATE SET user_id = EXCLUDED.user_id, claimed_at = EXCLUDED.claimed_at
      WHERE grading_claims.user_id = EXCLUDED.user_id
         OR grading_claims.claimed_at <= now() - make_interval(mins => ${CLAIM_MINUTES})
    RETURNING answer_id`,
  );
  return held.length > 0;
}

/**
 * Whether this copy still waits for the caller's grade: single correction, while it has none;
 * double correction, while the caller has not graded it, it has fewer than two gradings and no arbitration.
 */
function awaitsCallersGrade(current: Pick<AnswerRow, 'grade'>, double: boolean, gradings: readonly GradingRow[], callerId: string): boolean {
  if (!double) return current.grade === null;
  if (gradings.some((g) => g.arbitration || g.grader_id === callerId)) return false;
  // As the next-copy flow: an automatic grade without gradings settles the copy.
  return (current.grade === null || gradings.length > 0) && gradings.filter((g) => g.grade !== null).length < 2;
}

/**
 * GET /answer/select/{exerciseId}: the oldest current answer that is answered and not graded,
 * and not opened by another corrector in the last 10 minutes; it is then held for the caller.
 * Two correctors asking together get different copies (the claim is an upsert on the answer id).
 */
export async function selectNextAnswer(db: Db, auth: AuthContext, exerciseId: string): Promise<SelectedAnswer> {
  const [exercise] = await rows<{ id: string; answer_format: string; double_grading: boolean; chapter_id: string; anonymous_grading: boolean }>(
    db,
    sql`SELECT e.id, e.answer_format, c.double_grading, c.id AS chapter_id, c.anonymous_grading FROM exercises e JOIN chapters c ON c.id = e.chapter_id
        WHERE e.id = ${exerciseId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL`,
  );
  if (!exercise) throw notFound(EXERCISE_NOT_FOUND);
  if (exercise.answer_format === 'none') throw badRequest('Cet exercice n’attend pas de réponse.');
  if (!canTakeCopies(auth, (await assignmentsOf(db, [exerciseId])).get(exerciseId))) return { message: NOT_ASSIGNED_MESSAGE };
  // Double correction: a copy needs a grading while it has fewer than two and no arbitration, and
  // never goes back to a corrector who graded it; copies already graded once come first, to settle.
  const needsGrading = exercise.double_grading
    ? sql`(cur.grade IS NULL OR EXISTS (SELECT 1 FROM gradings g WHERE g.answer_id = cur.id))
        AND NOT EXISTS (SELECT 1 FROM gradings g WHERE g.answer_id = cur.id AND (g.arbitration OR g.grader_id = ${auth.userId}::uuid))
        AND (SELECT count(*) FROM gradings g WHERE g.answer_id = cur.id AND g.grade IS NOT NULL) < 2`
    : sql`cur.grade IS NULL`;
  const order = exercise.double_grading
    ? sql`(SELECT count(*) FROM gradings g WHERE g.answer_id = cur.id) DESC, cur.created_at, cur.id`
    : sql`cur.created_at, cur.id`;
  // A corrector of an anonymous chapter is sent to the copy by its copy id (decision 128), read with the candidates.
  const anonymous = seesPseudonyms(auth, exercise);
  for (let attempt = 0; attempt < 3; attempt++) {
    const candidates = await rows<{ id: string; user_id: string; copy_id: string | null }>(
      db,
      sql`
      WITH cur AS (
        SELECT DISTINCT ON (a.user_id) a.id, a.user_id, a.answer, a.grade, a.created_at
        FROM answers a
        WHERE a.exercise_id = ${exerciseId}::uuid AND a.withdrawn_at IS NULL
        ORDER BY a.user_id, a.seq DESC, a.created_at DESC
      )
      SELECT cur.id, cur.user_id, ${anonymous ? sql`ps.copy_id` : sql`NULL::uuid`} AS copy_id FROM cur
      ${anonymous ? sql`LEFT JOIN grading_pseudonyms ps ON ps.chapter_id = ${exercise.chapter_id}::uuid AND ps.user_id = cur.user_id` : sql``}
      WHERE ${needsGrading} AND btrim(cur.answer) <> ''
        AND NOT EXISTS (
          SELECT 1 FROM grading_claims g
          WHERE g.answer_id = cur.id AND g.user_id <> ${auth.userId}::uuid
            AND g.claimed_at > now() - make_interval(mins => ${CLAIM_MINUTES}))
      ORDER BY ${order}
      LIMIT 5`,
    );
    if (candidates.length === 0) break;
    for (const c of candidates) {
      if (!(await claimAnswer(db, auth.userId, c.id))) continue;
      // A pupil without a pseudonym yet (no table opened since they answered) gets one now.
      const key = !anonymous ? c.user_id : (c.copy_id ?? (await pseudonymsFor(db, exercise.chapter_id, [c.user_id])).get(c.user_id)!.copyId);
      return { url: `${key}/${exerciseId}` };
    }
  }
  return { message: 'Aucune copie à corriger pour cet exercice : toutes sont corrigées ou en cours de correction.' };
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
 * graded yet) and the desk (decision 65: the pupil's statement version, expected answer, points, scheme,
 * double-correction state); under anonymous correction a corrector gets the pseudonym only. A pupil:
 * only their own history, and only grade and comment once results are published (docs/product.md#spec-6); another
 * pupil's is 403.
 */
export async function getAnswerHistory(db: Db, auth: AuthContext, pupilOrCopyId: string, exerciseId: string): Promise<AnswerHistory> {
  assertMaySeeHistory(auth, pupilOrCopyId);
  const staff = hasRole(auth, 'member');
  // A corrector who is not an admin names the copy of an anonymous chapter by its copy id, never by the
  // pupil's id (decision 128): the pupil is looked up behind it, and a pupil's own id finds nobody.
  const byCopy = staff && !auth.isAdmin;
  const [head] = await rows<
    ChapterOptionsRow & {
      pseudonym_number: number | null;
      user_id: string | null;
      first_name: string | null;
      last_name: string | null;
      exercise_id: string;
      exercise_title: string;
      answer_format: string;
      max_points: number;
      scheme_items: SchemeItem[];
    }
  >(
    db,
    sql`SELECT u.id AS user_id, u.first_name, u.last_name, e.id AS exercise_id, e.title AS exercise_title, e.answer_format,
          e.max_points, e.scheme_items, ps.number AS pseudonym_number, ${chapterOptionsColumns}
        FROM exercises e JOIN chapters c ON c.id = e.chapter_id
        LEFT JOIN grading_pseudonyms ps ON ${byCopy}::boolean AND c.anonymous_grading AND ps.chapter_id = c.id AND ps.copy_id = ${pupilOrCopyId}::uuid
        LEFT JOIN users u ON u.id = CASE WHEN ${byCopy}::boolean AND c.anonymous_grading THEN ps.user_id ELSE ${pupilOrCopyId}::uuid END
        WHERE e.id = ${exerciseId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL`,
  );
  if (!head) throw notFound(EXERCISE_NOT_FOUND);
  const anonymous = staff && seesPseudonyms(auth, head);
  if (!head.user_id) throw notFound(anonymous ? 'Copie introuvable.' : 'Élève introuvable.');
  const userId = head.user_id;
  const history = await rows<AnswerRow & { answer: string; timestamp: string; pages_added: boolean }>(
    db,
    sql`SELECT ${stateColumns}, a.answer, ${isoMs(sql`a.created_at`)} AS timestamp, a.pages_added_at IS NOT NULL AS pages_added
        FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id
        WHERE a.user_id = ${userId}::uuid AND a.exercise_id = ${exerciseId}::uuid AND a.withdrawn_at IS NULL
        ORDER BY a.seq DESC, a.created_at DESC`,
  );
  const current = history[0];
  let result: GradeState | null = null;
  let desk: Desk | undefined;
  if (staff) {
    const gradings = current ? await gradingsOf(db, [current.id]) : [];
    desk = await buildDesk(db, auth, head, gradings);
    if (current) {
      result = presentState(current);
      if (head.double_grading) result = doubleResult(current, gradings, desk.role, auth.userId);
      else result.items = gradings.find((g) => !g.arbitration && g.grader_id === current.grader_id)?.items ?? [];
      desk.items = result.items ?? [];
      desk.pagesAddedAfterGrade = current.pages_added;
      // A read holds the copy only for a corrector who still has to grade it and holds nothing else:
      // re-reading a copy just graded (the desk does after each save) never takes it back from the next corrector.
      if (awaitsCallersGrade(current, head.double_grading, gradings, auth.userId)) await holdIfIdle(db, auth.userId, current.id);
    }
  } else if (current && isChapterPublished({ analysis: head.analysis, publishAt: head.publish_ms })) {
    // Allow-list for pupils: never the grader, the hidden flag or the version.
    result = { grade: current.grade, grade_comment: current.grade_comment ?? '' };
  }
  return {
    user: anonymous
      ? presentStudent(pupilOrCopyId, null, null, pseudonymOf(Number(head.pseudonym_number)))
      : presentStudent(userId, head.first_name, head.last_name, undefined),
    exercise: {
      _id: head.exercise_id,
      title: head.exercise_title,
      answerFormat: head.answer_format,
      chapter: head.id,
      chapterTitle: head.title,
    },
    answers: history.map((a) => ({ _id: a.id, answer: a.answer, timestamp: a.timestamp })),
    result,
    canGrade: staff,
    ...(desk ? { desk } : {}),
  };
}

/** The desk beside one copy (staff only): the version this pupil received and how the copy is graded. */
async function buildDesk(
  db: Tx,
  auth: AuthContext,
  head: ChapterOptionsRow & { user_id: string | null; exercise_id: string; answer_format: string; max_points: number; scheme_items: SchemeItem[] },
  gradings: GradingRow[],
): Promise<Desk> {
  const versions = await rows<{ content: string; answer: string | null }>(
    db,
    sql`SELECT content, answer FROM statement_versions WHERE exercise_id = ${head.exercise_id}::uuid ORDER BY position, id`,
  );
  const index = pickVersionIndex(head.user_id!, head.exercise_id, versions.length);
  const version = versions[index];
  const desk: Desk = {
    chapter: {
      _id: head.id,
      title: head.title,
      anonymousGrading: head.anonymous_grading,
      doubleGrading: head.double_grading,
      gradingTolerance: head.grading_tolerance,
    },
    statement: version?.content ?? '',
    version: index + 1,
    expectedAnswer: head.answer_format === 'numeric' ? (version?.answer ?? null) : null,
    maxPoints: head.max_points,
    schemeItems: head.scheme_items ?? [],
    role: 'single',
    items: [],
  };
  if (head.double_grading) {
    desk.status = doubleStatus(gradings, head.grading_tolerance);
    desk.gradings = visibleGradings(gradings, auth.userId).map(presentGrading);
    desk.role = deskRole(gradings, auth.userId, auth.isAdmin);
  }
  return desk;
}

/**
 * Double correction: the grade block is what this caller's save edits — their own grading (empty
 * while they have none), the arbitration for an admin once both are in, or the settled grade, read only.
 */
function doubleResult(current: AnswerRow, gradings: GradingRow[], role: Desk['role'], callerId: string): GradeState & { answerId: string } {
  const target =
    role === 'arbiter' ? gradings.find((g) => g.arbitration) : role === 'done' ? undefined : gradings.find((g) => !g.arbitration && g.grader_id === callerId);
  if (role === 'done') return { ...presentState(current), items: [] };
  return {
    answerId: current.id,
    grade: target?.grade ?? null,
    grade_comment: target?.grade_comment ?? '',
    hidden: current.hidden,
    grade_timestamp: target?.timestamp ?? null,
    grader: target?.grader_id ? { _id: target.grader_id, firstName: target.first_name, lastName: target.last_name } : null,
    items: target?.items ?? [],
  };
}

export interface GradeInput {
  answerId: string;
  grade: string | number | null;
  grade_comment: string | null;
  hidden: boolean;
  expectedGradeTimestamp: string | null;
  items?: string[];
}

export type GradeOutcome = { ok: true; saved: GradeSaved } | { ok: false; conflict: GradeConflict };

type LockedAnswer = AnswerRow &
  Pick<ChapterOptionsRow, 'double_grading' | 'grading_tolerance'> & {
    user_id: string;
    exercise_id: string;
    withdrawn: boolean;
    current_id: string | null;
    ts_ms: number | null;
    max_points: number;
    scheme_items: SchemeItem[];
    /** Decision 139: when sorting added pages to this graded copy (ISO), null when not flagged. */
    pages_added_at: string | null;
  };

/** A typed grade as stored, checked against the exercise: ≥ 0, at most maxPoints, items of its scheme (decision 61). */
function checkGrade(input: GradeInput, exercise: Pick<LockedAnswer, 'max_points' | 'scheme_items'>): { grade: string | null; items: string[] } {
  const items = [...new Set(input.items ?? [])];
  const known = new Set((exercise.scheme_items ?? []).map((i) => i.id));
  if (items.some((id) => !known.has(id))) throw badRequest('Élément de barème inconnu pour cet exercice.');
  let grade = normalizeGrade(input.grade);
  if (grade === undefined) throw badRequest(GRADE_MESSAGE);
  // A grade typed by hand wins; without one, the ticked items give their sum.
  if (grade === null && items.length > 0) grade = gradeFromItems(exercise.scheme_items, items);
  const value = grade === null ? null : cellNumber(grade);
  if (value !== null && value > exercise.max_points + 1e-9) throw badRequest(gradeAboveMaxMessage(exercise.max_points));
  return { grade, items };
}

/** Negative numbers are refused with their own message (normalizeGrade refuses them as malformed). */
function refuseNegative(grade: string | number | null) {
  if ((typeof grade === 'number' && grade < 0) || (typeof grade === 'string' && /^\s*[-−]/.test(grade))) throw badRequest(GRADE_NEGATIVE_MESSAGE);
}

/** The next version of a grade: now, moved forward even for two saves in the same millisecond. */
const nextVersion = (previousMs: number | null | undefined) => new Date(Math.max(Date.now(), Math.floor(previousMs ?? 0) + 1));

/**
 * POST /answer/grade: writes the grade on the answer row and appends to grade_audit, in one
 * transaction holding the row lock. The corrector sends the grade_timestamp they started from:
 * if the copy changed since (another corrector saved), nothing is written and the current state
 * comes back (409) — the later save wins only when made from the latest state, never silently.
 * Decision 61: the grade is checked against the exercise's maxPoints and stored with the ticked
 * scheme items; in a double-correction chapter the save is the caller's own grading (or an admin's
 * arbitration) and the copy's grade is settled from them (saveDoubleGrading).
 */
export async function saveGrade(db: Tx, auth: AuthContext, input: GradeInput): Promise<GradeOutcome> {
  refuseNegative(input.grade);
  if (normalizeGrade(input.grade) === undefined) throw badRequest(GRADE_MESSAGE);
  const comment = input.grade_comment ?? '';
  const expected = input.expectedGradeTimestamp === null ? null : new Date(input.expectedGradeTimestamp).toISOString();
  return db.transaction(async (tx) => {
    const [row] = await rows<LockedAnswer>(
      tx,
      sql`SELECT ${stateColumns}, a.user_id, a.exercise_id, a.withdrawn_at IS NOT NULL AS withdrawn,
            (extract(epoch FROM a.grade_timestamp) * 1000)::float8 AS ts_ms, ${isoMs(sql`a.pages_added_at`)} AS pages_added_at,
            (SELECT b.id FROM answers b
             WHERE b.user_id = a.user_id AND b.exercise_id = a.exercise_id AND b.withdrawn_at IS NULL
             ORDER BY b.seq DESC, b.created_at DESC LIMIT 1) AS current_id,
            e.max_points, e.scheme_items, c.double_grading, c.grading_tolerance
          FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id
            JOIN exercises e ON e.id = a.exercise_id JOIN chapters c ON c.id = e.chapter_id
          WHERE a.id = ${input.answerId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL
          FOR UPDATE OF a`,
    );
    if (!row) throw notFound('Copie introuvable.');
    if (row.withdrawn) throw badRequest(WITHDRAWN_MESSAGE);
    const { grade, items } = checkGrade(input, row);
    if (row.current_id !== row.id) {
      const [current] = await rows<AnswerRow>(
        tx,
        sql`SELECT ${stateColumns} FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id WHERE a.id = ${row.current_id}::uuid`,
      );
      return { ok: false, conflict: { message: NEWER_ANSWER_MESSAGE, current: presentState(current ?? row) } };
    }
    // The copy is saved: the caller's hold on it ends, so a second corrector may have it at once.
    await tx.execute(sql`DELETE FROM grading_claims WHERE answer_id = ${row.id}::uuid AND user_id = ${auth.userId}::uuid`);
    if (row.double_grading) return saveDoubleGrading(tx, auth, row, { grade, comment, items, hidden: input.hidden, expected });
    const gradings = await gradingsOf(tx, [row.id], true);
    const mine = gradings.find((g) => !g.arbitration && g.grader_id === row.grader_id);
    if (row.grade_timestamp !== expected) {
      return { ok: false, conflict: { message: GRADE_CONFLICT_MESSAGE, current: { ...presentState(row), items: mine?.items ?? [] } } };
    }
    await clearPagesAdded(tx, auth, row, 'grade');
    const sameItems = (mine?.items ?? []).join() === items.join();
    const unchanged = row.grade === grade && (row.grade_comment ?? '') === comment && row.hidden === input.hidden && sameItems;
    if (unchanged) {
      return {
        ok: true,
        saved: { answerId: row.id, grade, grade_comment: comment, hidden: row.hidden, grade_timestamp: row.grade_timestamp ?? '', items },
      };
    }
    const now = nextVersion(row.ts_ms);
    const [updated] = await rows<{ grade_timestamp: string }>(
      tx,
      sql`UPDATE answers SET grade = ${grade}, grade_comment = ${comment}, hidden = ${input.hidden},
            grader_id = ${auth.userId}::uuid, grade_timestamp = ${now.toISOString()}::timestamptz
          WHERE id = ${row.id}::uuid
          RETURNING ${isoMs(sql`grade_timestamp`)} AS grade_timestamp`,
    );
    // The grade and its items belong to whoever saved it last (single correction).
    await keepOnlyGrading(tx, row.id, auth.userId);
    await upsertGrading(tx, { answerId: row.id, exerciseId: row.exercise_id, graderId: auth.userId, grade, comment, items, arbitration: false, at: now });
    await appendGradeAudit(tx, auth, row.id, { old: row.grade, new: grade, oldComment: row.grade_comment, newComment: comment, hidden: input.hidden, kind: 'grade', items });
    return {
      ok: true,
      saved: { answerId: row.id, grade, grade_comment: comment, hidden: input.hidden, grade_timestamp: updated.grade_timestamp, items },
    };
  });
}

/**
 * Decision 139: a copy's « pages ajoutées après la note » notice ends when a corrector saves a grade on it
 * (`grade`) or dismisses it (`dismiss`); audited with the instant sorting set it. `copy`: the answer row as
 * read under its lock; nothing is written when it is not flagged.
 */
async function clearPagesAdded(tx: Tx, auth: AuthContext, copy: { id: string; pages_added_at: string | null }, how: 'grade' | 'dismiss'): Promise<void> {
  if (copy.pages_added_at === null) return;
  await tx.execute(sql`UPDATE answers SET pages_added_at = NULL WHERE id = ${copy.id}::uuid`);
  await audit(tx, auth, how === 'grade' ? 'grading.pages_added_cleared' : 'grading.pages_added_dismissed', copy.id, { flaggedAt: copy.pages_added_at });
}

/**
 * DELETE /answer/pages-added/{answerId} (decision 139): a corrector who read the pages sorting added and
 * keeps the grade removes the notice. The copy must be its pupil's current one; idempotent otherwise.
 */
export async function dismissPagesAdded(db: Db, auth: AuthContext, answerId: string): Promise<{ message: string }> {
  return db.transaction(async (tx) => {
    const [row] = await rows<{ id: string; withdrawn: boolean; pages_added_at: string | null }>(
      tx,
      sql`SELECT a.id, a.withdrawn_at IS NOT NULL AS withdrawn, ${isoMs(sql`a.pages_added_at`)} AS pages_added_at FROM answers a
            JOIN exercises e ON e.id = a.exercise_id JOIN chapters c ON c.id = e.chapter_id
          WHERE a.id = ${answerId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL
          FOR UPDATE OF a`,
    );
    if (!row) throw notFound('Copie introuvable.');
    if (row.withdrawn) throw badRequest(WITHDRAWN_MESSAGE);
    await clearPagesAdded(tx, auth, row, 'dismiss');
    return { message: PAGES_ADDED_DISMISSED_MESSAGE };
  });
}

function appendGradeAudit(
  tx: Tx,
  auth: AuthContext,
  answerId: string,
  e: { old: string | null; new: string | null; oldComment: string | null; newComment: string; hidden: boolean; kind: 'grade' | 'grading' | 'arbitration'; items: string[] | null },
) {
  const items = e.items === null ? null : `{${e.items.map((i) => `"${i}"`).join(',')}}`;
  return tx.execute(sql`
    INSERT INTO grade_audit (answer_id, grader_id, old_grade, new_grade, old_comment, new_comment, hidden, kind, items)
    VALUES (${answerId}::uuid, ${auth.userId}::uuid, ${e.old}, ${e.new}, ${e.oldComment}, ${e.newComment}, ${e.hidden}, ${e.kind}, ${items}::text[])`);
}

/**
 * Double correction (decision 63): the caller's save is their own grading (first
 * or second), or an admin's arbitration once both are in; a third corrector gets 409. Then the copy's
 * grade is settled: arbitration, else the mean of two grades within the tolerance, else nothing
 * (awaiting arbitration). Every grading and every change of the settled grade is audited.
 */
async function saveDoubleGrading(
  tx: Tx,
  auth: AuthContext,
  row: LockedAnswer,
  input: { grade: string | null; comment: string; items: string[]; hidden: boolean; expected: string | null },
): Promise<GradeOutcome> {
  const gradings = await gradingsOf(tx, [row.id], true);
  const role = deskRole(gradings, auth.userId, auth.isAdmin);
  if (role === 'done') return { ok: false, conflict: { message: BOTH_GRADED_MESSAGE, current: doubleResult(row, gradings, role, auth.userId) } };
  const arbitration = role === 'arbiter';
  const target = gradings.find((g) => g.arbitration === arbitration && g.grader_id === auth.userId) ?? (arbitration ? gradings.find((g) => g.arbitration) : undefined);
  if ((target?.timestamp ?? null) !== input.expected) {
    const current = doubleResult(row, gradings, role, auth.userId);
    return { ok: false, conflict: { message: GRADE_CONFLICT_MESSAGE, current } };
  }
  await clearPagesAdded(tx, auth, row, 'grade');
  const at = nextVersion(target?.ts_ms);
  if (arbitration && target && target.grader_id !== auth.userId) {
    // Another admin's arbitration is replaced: one arbitration per copy.
    await tx.execute(sql`DELETE FROM gradings WHERE id = ${target.id}::uuid`);
  }
  const timestamp = await upsertGrading(tx, {
    answerId: row.id,
    exerciseId: row.exercise_id,
    graderId: auth.userId,
    grade: input.grade,
    comment: input.comment,
    items: input.items,
    arbitration,
    at,
  });
  await appendGradeAudit(tx, auth, row.id, {
    old: target?.grade ?? null,
    new: input.grade,
    oldComment: target?.grade_comment ?? null,
    newComment: input.comment,
    hidden: input.hidden,
    kind: arbitration ? 'arbitration' : 'grading',
    items: input.items,
  });
  if (arbitration) {
    await audit(tx, auth, 'grade.arbitrate', row.id, { grade: input.grade, gradings: gradings.filter((g) => !g.arbitration).map((g) => ({ grader: g.grader_id, grade: g.grade })) });
  }
  const after = await gradingsOf(tx, [row.id]);
  const status: DoubleStatus = doubleStatus(after, row.grading_tolerance);
  const finalGrade = doubleFinal(after, row.grading_tolerance);
  const finalComment = settledComment(after);
  if (finalGrade !== row.grade || (finalGrade !== null && finalComment !== (row.grade_comment ?? '')) || row.hidden !== input.hidden) {
    const now = nextVersion(row.ts_ms);
    await tx.execute(sql`UPDATE answers SET grade = ${finalGrade}, grade_comment = ${finalGrade === null ? null : finalComment},
        hidden = ${input.hidden}, grader_id = ${auth.userId}::uuid, grade_timestamp = ${finalGrade === null ? null : now.toISOString()}::timestamptz
      WHERE id = ${row.id}::uuid`);
    if (finalGrade !== row.grade) {
      await appendGradeAudit(tx, auth, row.id, { old: row.grade, new: finalGrade, oldComment: row.grade_comment, newComment: finalComment, hidden: input.hidden, kind: 'grade', items: null });
    }
  }
  return {
    ok: true,
    saved: { answerId: row.id, grade: input.grade, grade_comment: input.comment, hidden: input.hidden, grade_timestamp: timestamp, items: input.items, status, finalGrade },
  };
}

/** The comment the pupil reads once a double-corrected copy is settled: the arbiter's, else both correctors' non-empty ones. */
function settledComment(gradings: readonly GradingRow[]): string {
  const arbitration = gradings.find((g) => g.arbitration);
  if (arbitration) return arbitration.grade_comment;
  return gradings
    .filter((g) => !g.arbitration && g.grade_comment.trim() !== '')
    .map((g) => g.grade_comment)
    .join('\n\n');
}

/**
 * GET /answer/overview/{chapterId}: the graded current answers of the chapter, latest first. Decision 63:
 * double correction adds each copy's gradings and status (a copy with gradings but no settled grade
 * is listed too; a corrector sees another's grading only once both are in); under anonymous
 * correction a corrector sees pseudonyms.
 */
export async function listOverview(db: Db, auth: AuthContext, chapterId: string): Promise<OverviewRow[]> {
  const chapter = await loadChapter(db, chapterId);
  const list = await rows<Omit<OverviewPageRow, 'number'>>(
    db,
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
  const byAnswer = new Map<string, GradingRow[]>();
  if (chapter.double_grading) {
    for (const g of await gradingsOf(db, list.map((r) => r.id))) byAnswer.set(g.answer_id, [...(byAnswer.get(g.answer_id) ?? []), g]);
  }
  const pseudonyms = seesPseudonyms(auth, chapter) ? await pseudonymsFor(db, chapterId, list.map((r) => r.user_id)) : null;
  return list.map((r) => {
    const row: OverviewRow = {
      _id: r.id,
      student: pseudonyms
        ? presentStudent(pseudonyms.get(r.user_id)!.copyId, null, null, pseudonyms.get(r.user_id)!.pseudonym)
        : presentStudent(r.user_id, r.s_first, r.s_last, undefined),
      grader: r.grader_id ? { _id: r.grader_id, firstName: r.g_first, lastName: r.g_last } : null,
      exercise: { _id: r.exercise_id, title: r.title, maxPoints: r.max_points },
      grade: r.grade,
      grade_comment: r.grade_comment,
      grade_timestamp: r.grade_timestamp,
    };
    if (chapter.double_grading) {
      const gradings = byAnswer.get(r.id) ?? [];
      row.status = doubleStatus(gradings, chapter.grading_tolerance);
      // Admins supervise: they see every grading; a corrector, only once both are in.
      row.gradings = (auth.isAdmin ? gradings : visibleGradings(gradings, auth.userId)).map(presentGrading);
    }
    return row;
  });
}

/** GET /answer/arbitration/{chapterId} (admins): the current copies whose two gradings are further apart than the tolerance. */
export async function listArbitration(db: Db, chapterId: string): Promise<ArbitrationRow[]> {
  const chapter = await loadChapter(db, chapterId);
  if (!chapter.double_grading) return [];
  const exercises = await answerableExercises(db, chapterId);
  const byId = new Map(exercises.map((e) => [e.id, e]));
  const waiting = (await currentGradings(db, exercises.map((e) => e.id))).filter(
    (g) =>
      !g.arbitrated &&
      g.grade === null &&
      doubleStatus(g.grades.filter((x) => x !== null).map((grade) => ({ grader_id: null, grade, arbitration: false })), chapter.grading_tolerance) === 'arbitration',
  );
  if (waiting.length === 0) return [];
  const gradings = await gradingsOf(db, waiting.map((w) => w.answer_id));
  const students = await rows<{ id: string; first_name: string | null; last_name: string | null }>(
    db,
    sql`SELECT id, first_name, last_name FROM users WHERE id = ANY(${`{${[...new Set(waiting.map((w) => w.user_id))].join(',')}}`}::uuid[])`,
  );
  const studentOf = new Map(students.map((u) => [u.id, u]));
  const order = new Map(exercises.map((e, i) => [e.id, i]));
  return waiting
    .sort((a, b) => order.get(a.exercise_id)! - order.get(b.exercise_id)! || a.answer_id.localeCompare(b.answer_id))
    .map((w) => {
      const s = studentOf.get(w.user_id);
      const e = byId.get(w.exercise_id)!;
      return {
        answerId: w.answer_id,
        url: `${w.user_id}/${w.exercise_id}`,
        student: presentStudent(w.user_id, s?.first_name ?? null, s?.last_name ?? null, undefined),
        exercise: { _id: e.id, title: e.title, maxPoints: e.max_points },
        gradings: gradings.filter((g) => g.answer_id === w.answer_id).map(presentGrading),
      };
    });
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

/** Which versions « Correction automatique » covers: a whole chapter, or one version of one exercise (errata). */
type AutoScope = { exerciseId: string; version: number } | undefined;

/** What « Correction automatique » would write now (null: no numeric exercise); the run and its count share it. */
async function planAutoCorrection(db: Tx, chapterId: string, only?: AutoScope) {
  await loadChapter(db, chapterId);
  const versions = await rows<{ exercise_id: string; answers: Array<string | null>; max_points: number }>(
    db,
    sql`SELECT e.id AS exercise_id, array_agg(v.answer ORDER BY v.position, v.id) AS answers, e.max_points
        FROM exercises e JOIN statement_versions v ON v.exercise_id = e.id
        WHERE e.chapter_id = ${chapterId}::uuid AND e.answer_format = 'numeric' AND e.deleted_at IS NULL
          ${only ? sql`AND e.id = ${only.exerciseId}::uuid` : sql``}
        GROUP BY e.id`,
  );
  const expectedOf = new Map(versions.map((v) => [v.exercise_id, v.answers]));
  const maxOf = new Map(versions.map((v) => [v.exercise_id, v.max_points]));
  if (expectedOf.size === 0) return null;
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
  let considered = 0;
  for (const a of current) {
    const answers = expectedOf.get(a.exercise_id)!;
    const version = pickVersionIndex(a.user_id, a.exercise_id, answers.length);
    if (only && version !== only.version) continue;
    considered++;
    const expected = answers[version] ?? null;
    // Decision 61: a right answer is worth the exercise's maxPoints.
    const right = autoGrade(a.answer, expected);
    const grade = right === null ? null : right === '1' ? String(maxOf.get(a.exercise_id)!) : '0';
    if (grade !== null && grade !== a.grade) changes.push({ id: a.id, old: a.grade, new: grade });
  }
  return { changes, considered };
}

/** GET /answer/auto/{chapterId}/count (decision 69): how many copies a run would grade, for the confirmation dialog. */
export async function countAutoCorrection(db: Db, chapterId: string): Promise<{ count: number }> {
  return { count: (await planAutoCorrection(db, chapterId))?.changes.length ?? 0 };
}

const AUTO_BATCH = 5_000;

/**
 * POST /answer/auto/{chapterId} (docs/product.md#design-3 Auto-correction): every numeric exercise's current
 * answer against the pupil's version's expected answer: maxPoints correct (decision 61), 0 wrong, empty untouched.
 * Never overwrites a person's grade: only ungraded answers and earlier automatic grades (grader
 * null) are written, and the UPDATE re-checks it, so a corrector saving meanwhile wins. Each
 * change is audited under the admin who ran it. `only` limits it to the pupils of one version of one
 * exercise (decision 75, errata: that version's expected answer was corrected).
 */
export async function autoCorrectChapter(db: Tx, auth: AuthContext, chapterId: string, only?: AutoScope): Promise<AutoCorrectionResult> {
  const plan = await planAutoCorrection(db, chapterId, only);
  if (!plan) return { message: 'Correction automatique : ce chapitre n’a pas d’exercice numérique.', graded: 0, unchanged: 0 };
  const { changes, considered } = plan;
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
  return { message: `Correction automatique terminée : ${graded} ${copies}.`, graded, unchanged: considered - graded };
}
