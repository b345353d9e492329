import {
  GRADE_CONFLICT_MESSAGE,
  settleDouble,
  type ArbitrationRow,
  type DeskRole,
  type DoubleStatus,
  type GradeSaved,
} from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { ownMarks, resolveMarks } from './annotations.js';
import { clearPagesAdded } from './pages-added.js';
import { canArbitrate } from './policies.js';
import { presentArbitrationRow, presentDoubleState } from './presenters.js';
import {
  answerableExercises,
  appendGradeAudit,
  currentGradings,
  gradingsOf,
  loadChapter,
  marksOf,
  nextVersion,
  upsertGrading,
  uuidArray,
  type GradingRow,
} from './queries.js';
import type { CheckedGrade, GradeOutcome, LockedAnswer } from './save.js';

/**
 * Double correction (decision 63): where a copy stands, what a save by this caller
 * is and whose gradings the caller may see (pure rules); saving one's grading or an admin's arbitration, and the
 * list of copies awaiting an arbitration.
 */

const BOTH_GRADED_MESSAGE = 'Cette copie a déjà ses deux corrections : seul un administrateur peut encore la trancher.';

export interface GradingLike {
  grader_id: string | null;
  grade: string | null;
  arbitration: boolean;
}

/** Status of a copy from its gradings (the graders' in order, then an arbitration) and the tolerance. */
export function doubleStatus(gradings: readonly GradingLike[], tolerance: number): DoubleStatus {
  if (gradings.some((g) => g.arbitration)) return 'arbitrated';
  const normal = gradings.filter((g) => !g.arbitration && g.grade !== null);
  if (normal.length === 0) return 'none';
  if (normal.length === 1) return 'partial';
  return settleDouble(normal[0].grade!, normal[1].grade!, tolerance).status;
}

/** The grade the answer row carries once settled (arbitration first, else the mean within tolerance), or null. */
export function doubleFinal(gradings: readonly GradingLike[], tolerance: number): string | null {
  const arbitration = gradings.find((g) => g.arbitration);
  if (arbitration) return arbitration.grade;
  const normal = gradings.filter((g) => !g.arbitration && g.grade !== null);
  if (normal.length < 2) return null;
  return settleDouble(normal[0].grade!, normal[1].grade!, tolerance).grade;
}

/**
 * What this caller's save is: their own grading (first or second), a new one while fewer than two
 * exist, an admin's arbitration once both are in (`mayArbitrate`, canArbitrate; an admin who graded the
 * copy is not its arbiter), or nothing left for them ('done').
 */
export function gradingRole(gradings: readonly GradingLike[], callerId: string, mayArbitrate: boolean): DeskRole {
  const normal = gradings.filter((g) => !g.arbitration);
  const mine = normal.findIndex((g) => g.grader_id === callerId);
  if (mine >= 0) return mine === 0 ? 'first' : 'second';
  if (normal.length < 2) return normal.length === 0 ? 'first' : 'second';
  return mayArbitrate ? 'arbiter' : 'done';
}

/** Neither corrector sees the other's grading until both are in (or an admin settled the copy). */
export function visibleGradings<T extends GradingLike>(gradings: readonly T[], callerId: string): T[] {
  const normal = gradings.filter((g) => !g.arbitration);
  if (normal.length >= 2 || gradings.some((g) => g.arbitration)) return [...gradings];
  return gradings.filter((g) => g.grader_id === callerId);
}

/**
 * Double correction (decision 63): the caller's save is their own grading (first
 * or second), or an admin's arbitration once both are in; a third corrector gets 409. Then the copy's
 * grade is settled: arbitration, else the mean of two grades within the tolerance, else nothing
 * (awaiting arbitration). Every grading and every change of the settled grade is audited.
 */
export async function saveDoubleGrading(tx: Tx, auth: AuthContext, row: LockedAnswer, input: CheckedGrade): Promise<GradeOutcome> {
  const gradings = await gradingsOf(tx, [row.id], true);
  const role = gradingRole(gradings, auth.userId, canArbitrate(auth));
  if (role === 'done')
    return { ok: false, conflict: { message: BOTH_GRADED_MESSAGE, current: presentDoubleState(row, gradings, role, auth.userId) } };
  const arbitration = role === 'arbiter';
  const target =
    gradings.find((g) => g.arbitration === arbitration && g.grader_id === auth.userId) ??
    (arbitration ? gradings.find((g) => g.arbitration) : undefined);
  // Decision 159: the marks of the grading this save writes (an arbitration taken over keeps its layer unless sent).
  const existing = target && (await marksOf(tx, row.id)).find((m) => m.arbitration === arbitration && m.grader_id === target.grader_id);
  if ((target?.timestamp ?? null) !== input.expected) {
    const current = { ...presentDoubleState(row, gradings, role, auth.userId), ...ownMarks(existing) };
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
    marks: resolveMarks(input.marks, existing),
  });
  await appendGradeAudit(tx, auth.userId, row.id, {
    old: target?.grade ?? null,
    new: input.grade,
    oldComment: target?.grade_comment ?? null,
    newComment: input.comment,
    hidden: input.hidden,
    kind: arbitration ? 'arbitration' : 'grading',
    items: input.items,
  });
  if (arbitration) {
    await audit(tx, auth, 'grade.arbitrate', row.id, {
      grade: input.grade,
      gradings: gradings.filter((g) => !g.arbitration).map((g) => ({ grader: g.grader_id, grade: g.grade })),
    });
  }
  const saved = await settleCopy(tx, auth, row, input.hidden);
  return {
    ok: true,
    saved: {
      answerId: row.id,
      grade: input.grade,
      grade_comment: input.comment,
      hidden: input.hidden,
      grade_timestamp: timestamp,
      items: input.items,
      ...saved,
    },
  };
}

/** After a grading: the copy's settled grade and comment written on the answer row (and audited) when they changed. */
async function settleCopy(
  tx: Tx,
  auth: AuthContext,
  row: LockedAnswer,
  hidden: boolean,
): Promise<Pick<GradeSaved, 'status' | 'finalGrade'>> {
  const after = await gradingsOf(tx, [row.id]);
  const status: DoubleStatus = doubleStatus(after, row.grading_tolerance);
  const finalGrade = doubleFinal(after, row.grading_tolerance);
  const finalComment = settledComment(after);
  if (finalGrade !== row.grade || (finalGrade !== null && finalComment !== (row.grade_comment ?? '')) || row.hidden !== hidden) {
    const now = nextVersion(row.ts_ms);
    await tx.execute(sql`UPDATE answers SET grade = ${finalGrade}, grade_comment = ${finalGrade === null ? null : finalComment},
        hidden = ${hidden}, grader_id = ${auth.userId}::uuid, grade_timestamp = ${finalGrade === null ? null : now.toISOString()}::timestamptz
      WHERE id = ${row.id}::uuid`);
    if (finalGrade !== row.grade) {
      await appendGradeAudit(tx, auth.userId, row.id, {
        old: row.grade,
        new: finalGrade,
        oldComment: row.grade_comment,
        newComment: finalComment,
        hidden,
        kind: 'grade',
        items: null,
      });
    }
  }
  return { status, finalGrade };
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

const studentShape = z.object({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() });

/** GET /answer/arbitration/{chapterId} (admins): the current copies whose two gradings are further apart than the tolerance. */
export async function listArbitration(db: Db, chapterId: string): Promise<ArbitrationRow[]> {
  const chapter = await loadChapter(db, chapterId);
  if (!chapter.double_grading) return [];
  const exercises = await answerableExercises(db, chapterId);
  const byId = new Map(exercises.map((e) => [e.id, e]));
  const waiting = (
    await currentGradings(
      db,
      exercises.map((e) => e.id),
    )
  ).filter(
    (g) =>
      !g.arbitrated &&
      g.grade === null &&
      doubleStatus(
        g.grades.filter((x) => x !== null).map((grade) => ({ grader_id: null, grade, arbitration: false })),
        chapter.grading_tolerance,
      ) === 'arbitration',
  );
  if (waiting.length === 0) return [];
  const gradings = await gradingsOf(
    db,
    waiting.map((w) => w.answer_id),
  );
  const students = await rows(
    db,
    studentShape,
    sql`SELECT id, first_name, last_name FROM users WHERE id = ANY(${uuidArray([...new Set(waiting.map((w) => w.user_id))])})`,
  );
  const studentOf = new Map(students.map((u) => [u.id, u]));
  const order = new Map(exercises.map((e, i) => [e.id, i]));
  return waiting
    .sort((a, b) => order.get(a.exercise_id)! - order.get(b.exercise_id)! || a.answer_id.localeCompare(b.answer_id))
    .map((w) =>
      presentArbitrationRow(
        w,
        studentOf.get(w.user_id),
        byId.get(w.exercise_id)!,
        gradings.filter((g) => g.answer_id === w.answer_id),
      ),
    );
}
