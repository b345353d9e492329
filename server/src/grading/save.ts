import {
  cellNumber,
  GRADE_CONFLICT_MESSAGE,
  GRADE_MESSAGE,
  GRADE_NEGATIVE_MESSAGE,
  gradeAboveMaxMessage,
  gradeFromItems,
  NEWER_ANSWER_MESSAGE,
  normalizeGrade,
  schemeItemSchema,
  type Annotation,
  type GradeConflict,
  type GradeSaved,
} from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/client.js';
import { column, one } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { checkMarks, ownMarks, resolveMarks, sameMarks, type MarksInput } from './annotations.js';
import { saveDoubleGrading } from './double.js';
import { clearPagesAdded } from './pages-added.js';
import { presentGradeState } from './presenters.js';
import {
  appendGradeAudit,
  COPY_NOT_FOUND,
  gradeStateColumns,
  gradeStateShape,
  gradingsOf,
  isoMs,
  keepOnlyGrading,
  marksOf,
  nextVersion,
  upsertGrading,
  WITHDRAWN_MESSAGE,
} from './queries.js';

/** Saving a grade (docs/product.md#spec-2 « Correction »): the grade block of one copy, against the version the corrector read. */

export interface GradeInput {
  answerId: string;
  grade: string | number | null;
  grade_comment: string | null;
  hidden: boolean;
  expectedGradeTimestamp: string | null;
  items?: string[];
  /** Decisions 159–160: omitted, the marks stay as they are. */
  annotations?: Annotation[];
  bankComments?: string[];
}

export type GradeOutcome = { ok: true; saved: GradeSaved } | { ok: false; conflict: GradeConflict };

/** A save once checked: the grade as stored, its comment and ticked items, the hidden flag and the version it was made from. */
export interface CheckedGrade {
  grade: string | null;
  comment: string;
  items: string[];
  hidden: boolean;
  expected: string | null;
  /** Decisions 159–160: the marks sent (null: omitted). */
  marks: MarksInput;
}

const lockedAnswerShape = gradeStateShape.extend({
  user_id: z.string(),
  exercise_id: z.string(),
  withdrawn: z.boolean(),
  current_id: z.string().nullable(),
  ts_ms: column.numberOrNull,
  max_points: column.number,
  scheme_items: z.array(schemeItemSchema),
  double_grading: z.boolean(),
  grading_tolerance: column.number,
  /** Decision 139: when sorting added pages to this graded copy (ISO), null when not flagged. */
  pages_added_at: z.string().nullable(),
});
export type LockedAnswer = z.output<typeof lockedAnswerShape>;

/** A typed grade as stored, checked against the exercise: ≥ 0, at most maxPoints, items of its scheme (decision 61). */
function checkGrade(
  input: GradeInput,
  exercise: Pick<LockedAnswer, 'max_points' | 'scheme_items'>,
): { grade: string | null; items: string[] } {
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
  if ((typeof grade === 'number' && grade < 0) || (typeof grade === 'string' && /^\s*[-−]/.test(grade)))
    throw badRequest(GRADE_NEGATIVE_MESSAGE);
}

/** The copy under its row lock, with its exercise's points and scheme, its chapter's options and its pupil's current answer. */
function lockAnswer(tx: Tx, answerId: string): Promise<LockedAnswer | undefined> {
  return one(
    tx,
    lockedAnswerShape,
    sql`SELECT ${gradeStateColumns}, a.user_id, a.exercise_id, a.withdrawn_at IS NOT NULL AS withdrawn,
          (extract(epoch FROM a.grade_timestamp) * 1000)::float8 AS ts_ms, ${isoMs(sql`a.pages_added_at`)} AS pages_added_at,
          (SELECT b.id FROM answers b
           WHERE b.user_id = a.user_id AND b.exercise_id = a.exercise_id AND b.withdrawn_at IS NULL
           ORDER BY b.seq DESC, b.created_at DESC LIMIT 1) AS current_id,
          e.max_points, e.scheme_items, c.double_grading, c.grading_tolerance
        FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id
          JOIN exercises e ON e.id = a.exercise_id JOIN chapters c ON c.id = e.chapter_id
        WHERE a.id = ${answerId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL
        FOR UPDATE OF a`,
  );
}

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
    const row = await lockAnswer(tx, input.answerId);
    if (!row) throw notFound(COPY_NOT_FOUND);
    if (row.withdrawn) throw badRequest(WITHDRAWN_MESSAGE);
    const { grade, items } = checkGrade(input, row);
    const marks = await checkMarks(tx, row, input);
    if (row.current_id !== row.id) {
      const current = await one(
        tx,
        gradeStateShape,
        sql`SELECT ${gradeStateColumns} FROM answers a LEFT JOIN users gu ON gu.id = a.grader_id WHERE a.id = ${row.current_id}::uuid`,
      );
      return { ok: false, conflict: { message: NEWER_ANSWER_MESSAGE, current: presentGradeState(current ?? row) } };
    }
    // The copy is saved: the caller's hold on it ends, so a second corrector may have it at once.
    await tx.execute(sql`DELETE FROM grading_claims WHERE answer_id = ${row.id}::uuid AND user_id = ${auth.userId}::uuid`);
    const checked: CheckedGrade = { grade, comment, items, hidden: input.hidden, expected, marks };
    return row.double_grading ? saveDoubleGrading(tx, auth, row, checked) : saveSingleGrade(tx, auth, row, checked);
  });
}

/** Single correction: the copy's grade is the caller's, written when the copy is still as the caller read it. */
async function saveSingleGrade(tx: Tx, auth: AuthContext, row: LockedAnswer, input: CheckedGrade): Promise<GradeOutcome> {
  const { grade, comment, items } = input;
  const gradings = await gradingsOf(tx, [row.id], true);
  const mine = gradings.find((g) => !g.arbitration && g.grader_id === row.grader_id);
  // Decision 159: the copy's marks are its grading's; a corrector who takes the grade over keeps them unless they send theirs.
  const existing = (await marksOf(tx, row.id)).find((m) => !m.arbitration && m.grader_id === row.grader_id);
  if (row.grade_timestamp !== input.expected) {
    const current = { ...presentGradeState(row), items: mine?.items ?? [], ...ownMarks(existing) };
    return { ok: false, conflict: { message: GRADE_CONFLICT_MESSAGE, current } };
  }
  await clearPagesAdded(tx, auth, row, 'grade');
  const marks = resolveMarks(input.marks, existing);
  const sameItems = (mine?.items ?? []).join() === items.join();
  const sameGrade = row.grade === grade && (row.grade_comment ?? '') === comment && row.hidden === input.hidden && sameItems;
  if (sameGrade && sameMarks(marks, existing)) {
    return {
      ok: true,
      saved: { answerId: row.id, grade, grade_comment: comment, hidden: row.hidden, grade_timestamp: row.grade_timestamp ?? '', items },
    };
  }
  const now = nextVersion(row.ts_ms);
  const updated = await one(
    tx,
    z.object({ grade_timestamp: z.string() }),
    sql`UPDATE answers SET grade = ${grade}, grade_comment = ${comment}, hidden = ${input.hidden},
          grader_id = ${auth.userId}::uuid, grade_timestamp = ${now.toISOString()}::timestamptz
        WHERE id = ${row.id}::uuid
        RETURNING ${isoMs(sql`grade_timestamp`)} AS grade_timestamp`,
  );
  // The grade and its items belong to whoever saved it last (single correction).
  await keepOnlyGrading(tx, row.id, auth.userId);
  await upsertGrading(tx, {
    answerId: row.id,
    exerciseId: row.exercise_id,
    graderId: auth.userId,
    grade,
    comment,
    items,
    arbitration: false,
    at: now,
    marks,
  });
  // The grade history records grades; a save that only moved marks makes a new version (the conflict check) and no line.
  if (!sameGrade)
    await appendGradeAudit(tx, auth.userId, row.id, {
      old: row.grade,
      new: grade,
      oldComment: row.grade_comment,
      newComment: comment,
      hidden: input.hidden,
      kind: 'grade',
      items,
    });
  return {
    ok: true,
    saved: { answerId: row.id, grade, grade_comment: comment, hidden: input.hidden, grade_timestamp: updated!.grade_timestamp, items },
  };
}
