import { settleDouble } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { findChapter } from '../chapters/service.js';
import type { Db } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { chapters } from '../db/schema.js';
import { notFound } from '../errors.js';
import { assertCopiesReturned, assertMayGetReturnedCopy } from './policies.js';

/**
 * Returned copies (docs/product.md#returned-copies, decision 162): each exercise's current answer of a pupil with
 * the grade, the comment and the marks of the grade that counts.
 */

type ChapterRow = typeof chapters.$inferSelect;

export interface CopyExercise {
  id: string;
  title: string;
  maxPoints: number;
  schemeItems: Array<{ id: string; text: string }>;
}

const answerShape = z.object({
  id: z.string(),
  user_id: z.string(),
  exercise_id: z.string(),
  file_id: z.string().nullable(),
  grade: z.string().nullable(),
  grade_comment: z.string().nullable(),
  grader_id: z.string().nullable(),
});

const gradingShape = z.object({
  answer_id: z.string(),
  grader_id: z.string().nullable(),
  grade: z.string().nullable(),
  arbitration: z.boolean(),
  annotations: z.unknown(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});
type GradingRow = z.output<typeof gradingShape>;

/** One corrector's marks as stored (checked against the contract by the presenter). */
export interface CopyLayer {
  corrector: string;
  annotations: unknown;
}

export interface ReturnedCopyRow {
  exercise: CopyExercise;
  /** The pupil's current answer, absent when they did not answer. */
  answer?: z.output<typeof answerShape>;
  layers: CopyLayer[];
}

/**
 * Decision 162: the gradings whose marks the pupil sees. Single correction: the grading of whoever holds the grade;
 * double: both once settled within the tolerance, nothing before (the layers are private as the grades are,
 * decision 159); an arbitration: the arbiter's alone.
 */
function countingGradings(chapter: ChapterRow, holder: string | null, gradings: GradingRow[]): GradingRow[] {
  const arbitration = gradings.find((g) => g.arbitration);
  if (arbitration) return [arbitration];
  const normal = gradings.filter((g) => !g.arbitration);
  if (!chapter.doubleGrading) return normal.filter((g) => g.grader_id !== null && g.grader_id === holder);
  if (normal.length < 2 || normal[0].grade === null || normal[1].grade === null) return [];
  return settleDouble(normal[0].grade, normal[1].grade, chapter.gradingTolerance).status === 'settled' ? normal.slice(0, 2) : [];
}

/** The chapter's answerable exercises with their scheme items (the marks name them). */
export async function copyExercisesOf(db: Db, chapterId: string): Promise<CopyExercise[]> {
  const found = await rows(
    db,
    z.object({ id: z.string(), title: z.string(), max_points: column.number, scheme_items: z.unknown() }),
    sql`SELECT id, title, max_points, scheme_items FROM exercises
        WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' AND deleted_at IS NULL ORDER BY position, id`,
  );
  const items = z.array(z.object({ id: z.string(), text: z.string() }).loose()).catch([]);
  return found.map((e) => ({
    id: e.id,
    title: e.title,
    maxPoints: e.max_points,
    schemeItems: items.parse(e.scheme_items ?? []).map((i) => ({ id: i.id, text: i.text })),
  }));
}

/** The returned copies of some pupils of a chapter, by pupil, each exercise in the chapter's order. */
export async function copiesOf(
  db: Db,
  chapter: ChapterRow,
  exercises: CopyExercise[],
  userIds: readonly string[],
): Promise<Map<string, ReturnedCopyRow[]>> {
  const out = new Map<string, ReturnedCopyRow[]>();
  if (userIds.length === 0 || exercises.length === 0) return out;
  const answers = await rows(
    db,
    answerShape,
    sql`SELECT DISTINCT ON (a.user_id, a.exercise_id) a.id, a.user_id, a.exercise_id, a.file_id, a.grade, a.grade_comment, a.grader_id
        FROM answers a
        WHERE a.user_id = ANY(${`{${userIds.join(',')}}`}::uuid[])
          AND a.exercise_id = ANY(${`{${exercises.map((e) => e.id).join(',')}}`}::uuid[]) AND a.withdrawn_at IS NULL
        ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC`,
  );
  const gradings =
    answers.length === 0
      ? []
      : await rows(
          db,
          gradingShape,
          sql`SELECT g.answer_id, g.grader_id, g.grade, g.arbitration, g.annotations, u.first_name, u.last_name
              FROM gradings g LEFT JOIN users u ON u.id = g.grader_id
              WHERE g.answer_id = ANY(${`{${answers.map((a) => a.id).join(',')}}`}::uuid[])
              ORDER BY g.arbitration, g.created_at, g.id`,
        );
  const byAnswer = new Map<string, GradingRow[]>();
  for (const g of gradings) byAnswer.set(g.answer_id, [...(byAnswer.get(g.answer_id) ?? []), g]);
  const byPupil = new Map<string, Map<string, z.output<typeof answerShape>>>();
  for (const a of answers) {
    let mine = byPupil.get(a.user_id);
    if (!mine) byPupil.set(a.user_id, (mine = new Map()));
    mine.set(a.exercise_id, a);
  }
  for (const userId of userIds) {
    const mine = byPupil.get(userId);
    out.set(
      userId,
      exercises.map((exercise) => {
        const answer = mine?.get(exercise.id);
        if (!answer) return { exercise, layers: [] };
        const layers = countingGradings(chapter, answer.grader_id, byAnswer.get(answer.id) ?? []).map((g) => ({
          corrector: `${g.first_name ?? ''} ${g.last_name ?? ''}`.trim(),
          annotations: g.annotations,
        }));
        return { exercise, answer, layers };
      }),
    );
  }
  return out;
}

/**
 * GET /results/{chapterId}/copies: the caller's own copies once published and returned (403 otherwise, in
 * French); an admin names any pupil with `user`.
 */
export async function loadReturnedCopies(db: Db, auth: AuthContext, chapterId: string, user?: string, now = new Date()) {
  const target = user ?? auth.userId;
  assertMayGetReturnedCopy(auth, target);
  const chapter = await findChapter(db, chapterId);
  assertCopiesReturned(auth, chapter, now);
  if (target !== auth.userId) {
    const [pupil] = await rows(db, z.object({ id: z.string() }), sql`SELECT id FROM users WHERE id = ${target}::uuid`);
    if (!pupil) throw notFound('Élève introuvable.');
  }
  const exercises = await copyExercisesOf(db, chapterId);
  const copies = (await copiesOf(db, chapter, exercises, [target])).get(target) ?? [];
  return { chapter, userId: target, copies };
}
