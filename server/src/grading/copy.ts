import {
  NOT_ASSIGNED_MESSAGE,
  pseudonymOf,
  schemeItemSchema,
  type AnswerHistory,
  type Desk,
  type GradeState,
  type SelectedAnswer,
} from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { isChapterPublished } from '../chapters/publication.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { pickVersionIndex } from '../exercises/versions.js';
import { marksView } from './annotations.js';
import { assignmentsOf } from './assignments.js';
import { doubleStatus, gradingRole, visibleGradings } from './double.js';
import { assertMaySeeCopy, canArbitrate, canGrade, canSeeNames, canTakeCopies } from './policies.js';
import { presentDoubleState, presentGradeState, presentGradingContext, presentGradingCopy, presentStudent } from './presenters.js';
import {
  chapterOptionsColumns,
  chapterOptionsShape,
  COPY_NOT_FOUND,
  EXERCISE_NOT_FOUND,
  gradeStateColumns,
  gradeStateShape,
  gradingsOf,
  isoMs,
  marksOf,
  pseudonymsFor,
  type GradeStateRow,
  type GradingRow,
} from './queries.js';

/**
 * The corrector's copy (docs/product.md#spec-2 « Correction »): the next copy to grade of an exercise, held for
 * the corrector, and one copy as the grading screen reads it, with its grading context (`desk`).
 */

/** A corrector who opened a copy holds it this long: "next copy" hands others a different one. */
const CLAIM_MINUTES = 10;

const nextExerciseShape = z.object({
  id: z.string(),
  answer_format: z.string(),
  double_grading: z.boolean(),
  chapter_id: z.string(),
  anonymous_grading: z.boolean(),
});
const candidateShape = z.object({ id: z.string(), user_id: z.string(), copy_id: z.string().nullable() });

/**
 * GET /answer/select/{exerciseId}: the oldest current answer that is answered and not graded,
 * and not opened by another corrector in the last 10 minutes; it is then held for the caller.
 * Two correctors asking together get different copies (the claim is an upsert on the answer id).
 */
export async function selectNextAnswer(db: Db, auth: AuthContext, exerciseId: string): Promise<SelectedAnswer> {
  const exercise = await one(
    db,
    nextExerciseShape,
    sql`SELECT e.id, e.answer_format, c.double_grading, c.id AS chapter_id, c.anonymous_grading FROM exercises e JOIN chapters c ON c.id = e.chapter_id
        WHERE e.id = ${exerciseId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL`,
  );
  if (!exercise) throw notFound(EXERCISE_NOT_FOUND);
  if (exercise.answer_format === 'none') throw badRequest('Cet exercice n’attend pas de réponse.');
  if (!canTakeCopies(auth, (await assignmentsOf(db, [exerciseId])).get(exerciseId))) return { message: NOT_ASSIGNED_MESSAGE };
  // A corrector of an anonymous chapter is sent to the copy by its copy id (decision 128), read with the candidates.
  const anonymous = !canSeeNames(auth, exercise);
  for (let attempt = 0; attempt < 3; attempt++) {
    const candidates = await rows(db, candidateShape, nextCopiesQuery(auth, exercise, anonymous));
    if (candidates.length === 0) break;
    for (const c of candidates) {
      if (!(await claimAnswer(db, auth.userId, c.id))) continue;
      // A pupil without a pseudonym yet (no table opened since they answered) gets one now.
      const key = !anonymous
        ? c.user_id
        : (c.copy_id ?? (await pseudonymsFor(db, exercise.chapter_id, [c.user_id])).get(c.user_id)!.copyId);
      return { url: `${key}/${exerciseId}` };
    }
  }
  return { message: 'Aucune copie à corriger pour cet exercice : toutes sont corrigées ou en cours de correction.' };
}

/** Up to five copies of the exercise that wait for the caller's grade and nobody else holds, first to take first. */
function nextCopiesQuery(auth: AuthContext, exercise: z.output<typeof nextExerciseShape>, anonymous: boolean) {
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
  return sql`
      WITH cur AS (
        SELECT DISTINCT ON (a.user_id) a.id, a.user_id, a.answer, a.grade, a.created_at
        FROM answers a
        WHERE a.exercise_id = ${exercise.id}::uuid AND a.withdrawn_at IS NULL
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
      LIMIT 5`;
}

const claimedShape = z.object({ answer_id: z.string() });

/**
 * Holds an answer for the corrector (grading_claims): taken only if free, already theirs, or held
 * by someone else for more than CLAIM_MINUTES. A corrector holds one copy at a time.
 */
async function claimAnswer(db: Tx, userId: string, answerId: string): Promise<boolean> {
  const claimed = await rows(
    db,
    claimedShape,
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
  const held = await rows(
    db,
    claimedShape,
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
function awaitsCallersGrade(
  current: Pick<GradeStateRow, 'grade'>,
  double: boolean,
  gradings: readonly GradingRow[],
  callerId: string,
): boolean {
  if (!double) return current.grade === null;
  if (gradings.some((g) => g.arbitration || g.grader_id === callerId)) return false;
  // As the next-copy flow: an automatic grade without gradings settles the copy.
  return (current.grade === null || gradings.length > 0) && gradings.filter((g) => g.grade !== null).length < 2;
}

const copyHeadShape = chapterOptionsShape.extend({
  pseudonym_number: column.numberOrNull,
  user_id: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  exercise_id: z.string(),
  exercise_title: z.string(),
  answer_format: z.string(),
  max_points: column.number,
  scheme_items: z.array(schemeItemSchema),
});
type CopyHead = z.output<typeof copyHeadShape>;

const copyAnswerShape = gradeStateShape.extend({ answer: z.string(), timestamp: z.string(), pages_added: z.boolean() });
type CopyAnswer = z.output<typeof copyAnswerShape>;

/**
 * GET /answer/history/{uid}/{eid}: the pupil's answers to the exercise (newest first) and the grade
 * block of the current one. Members and admins: any pupil, the full block (an empty one when not
 * graded yet) and the grading context (decision 61: the pupil's statement version, expected answer, points,
 * scheme, double-correction state); under anonymous correction a corrector gets the pseudonym only. A pupil:
 * only their own copy, and only grade and comment once results are published (docs/product.md#spec-6); another
 * pupil's is 403.
 */
export async function getGradingCopy(db: Db, auth: AuthContext, pupilOrCopyId: string, exerciseId: string): Promise<AnswerHistory> {
  assertMaySeeCopy(auth, pupilOrCopyId);
  const staff = canGrade(auth);
  // A corrector who is not an admin names the copy of an anonymous chapter by its copy id, never by the
  // pupil's id (decision 128): the pupil is looked up behind it, and a pupil's own id finds nobody.
  const byCopy = !canSeeNames(auth, { anonymous_grading: true });
  const head = await one(
    db,
    copyHeadShape,
    sql`SELECT u.id AS user_id, u.first_name, u.last_name, e.id AS exercise_id, e.title AS exercise_title, e.answer_format,
          e.max_points, e.scheme_items, ps.number AS pseudonym_number, ${chapterOptionsColumns}
        FROM exercises e JOIN chapters c ON c.id = e.chapter_id
        LEFT JOIN grading_pseudonyms ps ON ${byCopy}::boolean AND c.anonymous_grading AND ps.chapter_id = c.id AND ps.copy_id = ${pupilOrCopyId}::uuid
        LEFT JOIN users u ON u.id = CASE WHEN ${byCopy}::boolean AND c.anonymous_grading THEN ps.user_id ELSE ${pupilOrCopyId}::uuid END
        WHERE e.id = ${exerciseId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL`,
  );
  if (!head) throw notFound(EXERCISE_NOT_FOUND);
  const anonymous = !canSeeNames(auth, head);
  if (!head.user_id) throw notFound(anonymous ? COPY_NOT_FOUND : 'Élève introuvable.');
  const userId = head.user_id;
  const answers = await rows(
    db,
    copyAnswerShape,
    sql`SELECT ${gradeStateColumns}, a.answer, ${isoMs(sql`a.created_at`)} AS timestamp, a.pages_added_at IS NOT NULL AS pages_added
        FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id
        WHERE a.user_id = ${userId}::uuid AND a.exercise_id = ${exerciseId}::uuid AND a.withdrawn_at IS NULL
        ORDER BY a.seq DESC, a.created_at DESC`,
  );
  const current = answers[0];
  let result: GradeState | null = null;
  let staffView: { desk: Desk } | null = null;
  if (staff) {
    const view = await gradingView(db, auth, head, current);
    result = view.result;
    staffView = { desk: view.context };
  } else if (current && isChapterPublished({ analysis: head.analysis, publishAt: head.publish_ms })) {
    // Allow-list for pupils: never the grader, the hidden flag or the version.
    result = { grade: current.grade, grade_comment: current.grade_comment ?? '' };
  }
  const user = anonymous
    ? presentStudent(pupilOrCopyId, null, null, pseudonymOf(head.pseudonym_number ?? 0))
    : presentStudent(userId, head.first_name, head.last_name, undefined);
  return presentGradingCopy(head, user, answers, result, staffView);
}

/**
 * What staff read of a copy: its grade block (in double correction, what this caller's save edits) and its
 * grading context. A read holds the copy only for a corrector who still has to grade it and holds nothing else:
 * re-reading a copy just graded (the screen does after each save) never takes it back from the next corrector.
 */
async function gradingView(
  db: Db,
  auth: AuthContext,
  head: CopyHead,
  current: CopyAnswer | undefined,
): Promise<{ result: GradeState | null; context: Desk }> {
  const gradings = current ? await gradingsOf(db, [current.id]) : [];
  const context = await loadGradingContext(db, auth, head, gradings);
  if (!current) return { result: null, context };
  let result: GradeState = presentGradeState(current);
  if (head.double_grading) result = presentDoubleState(current, gradings, context.role, auth.userId);
  else result.items = gradings.find((g) => !g.arbitration && g.grader_id === current.grader_id)?.items ?? [];
  context.items = result.items ?? [];
  context.pagesAddedAfterGrade = current.pages_added;
  const reader = { double: head.double_grading, role: context.role, status: context.status, callerId: auth.userId };
  const copy = { copyGraderId: current.grader_id, anonymous: head.anonymous_grading };
  result = { ...result, ...marksView(await marksOf(db, current.id), { ...reader, ...copy }) };
  if (awaitsCallersGrade(current, head.double_grading, gradings, auth.userId)) await holdIfIdle(db, auth.userId, current.id);
  return { result, context };
}

/** The grading context beside one copy (staff only): the version this pupil received and how the copy is graded. */
async function loadGradingContext(db: Tx, auth: AuthContext, head: CopyHead, gradings: GradingRow[]): Promise<Desk> {
  const versions = await rows(
    db,
    z.object({ content: z.string(), answer: z.string().nullable() }),
    sql`SELECT content, answer FROM statement_versions WHERE exercise_id = ${head.exercise_id}::uuid ORDER BY position, id`,
  );
  const index = pickVersionIndex(head.user_id!, head.exercise_id, versions.length);
  const version = versions[index];
  return presentGradingContext({
    chapter: head,
    exercise: head,
    version: { index, content: version?.content ?? null, answer: version?.answer ?? null },
    double: head.double_grading
      ? {
          status: doubleStatus(gradings, head.grading_tolerance),
          gradings: visibleGradings(gradings, auth.userId),
          role: gradingRole(gradings, auth.userId, canArbitrate(auth)),
        }
      : undefined,
  });
}
