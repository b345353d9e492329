import {
  NUMERIC_ANSWER_MAX,
  NUMERIC_ANSWER_MESSAGE,
  NUMERIC_ANSWER_PATTERN,
  PDF_PATH_PATTERN,
  type AnswerSave,
  type AnswerSaved,
  type MyAnswer,
} from '@olympe/contract';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { answers, exercises, files } from '../db/schema.js';
import { badRequest, forbidden } from '../errors.js';
import { loadChapterContext, loadExerciseContext } from '../sessions/service.js';
import { checkSaveAllowed } from '../sessions/state.js';

export const PUBLISHED_MESSAGE = 'Les résultats sont publiés : les réponses ne sont plus modifiables.';

/**
 * POST /answer (DESIGN §3 Answers): appends one row to the history. A save repeating a stored
 * (user, exercise, seq) is a no-op; an older seq is kept in the history but never becomes the
 * current answer, which is the row with the highest seq. Refused after the deadline + grace.
 */
export async function saveAnswer(db: Db, auth: AuthContext, input: AnswerSave, ip: string): Promise<AnswerSaved> {
  const now = new Date();
  const ctx = await loadExerciseContext(db, auth, input.exerciseId, now);
  const { exercise } = ctx;
  if (!ctx.staff) {
    if (ctx.chapter.analysis) throw forbidden(PUBLISHED_MESSAGE);
    const verdict = checkSaveAllowed(ctx.state, now, ctx.session !== null);
    if (!verdict.ok) throw forbidden(verdict.message);
  }
  const fileId = await checkAnswerValue(db, auth, exercise.answerFormat, input.answer);
  const seq = input.seq ?? now.getTime();

  // One statement: the duplicate check, the insert and whether a newer save exists.
  const result = await db.execute<{ inserted: boolean; newer: boolean }>(sql`
    WITH ins AS (
      INSERT INTO answers (user_id, exercise_id, answer, file_id, seq, ip)
      SELECT ${auth.userId}::uuid, ${exercise.id}::uuid, ${input.answer}::text, ${fileId}::uuid, ${seq}::bigint, ${ip}::text
      WHERE NOT EXISTS (
        SELECT 1 FROM answers WHERE user_id = ${auth.userId}::uuid AND exercise_id = ${exercise.id}::uuid AND seq = ${seq}::bigint
      )
      ON CONFLICT (user_id, exercise_id, seq) WHERE seq > 0 DO NOTHING
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM ins) AS inserted,
      EXISTS (
        SELECT 1 FROM answers
        WHERE user_id = ${auth.userId}::uuid AND exercise_id = ${exercise.id}::uuid AND seq > ${seq}::bigint AND withdrawn_at IS NULL
      ) AS newer`);
  const row = (result as unknown as { rows: Array<{ inserted: boolean; newer: boolean }> }).rows[0];
  return { exercise: exercise.id, seq, current: !row.newer, duplicate: !row.inserted };
}

/** Validates the value for the exercise's format; returns the referenced file id of a PDF answer. */
async function checkAnswerValue(db: Db, auth: AuthContext, format: string, answer: string): Promise<string | null> {
  if (format === 'numeric') {
    if (answer.length > NUMERIC_ANSWER_MAX || !NUMERIC_ANSWER_PATTERN.test(answer)) throw badRequest(NUMERIC_ANSWER_MESSAGE);
    return null;
  }
  if (format === 'pdf') {
    const id = PDF_PATH_PATTERN.exec(answer)?.[1];
    if (!id) throw badRequest('Réponse invalide : le chemin d’un PDF téléversé est attendu.');
    const [file] = await db.select({ ownerId: files.ownerId }).from(files).where(eq(files.id, id));
    if (!file) throw badRequest('Fichier PDF introuvable : téléversez-le d’abord.');
    // DESIGN §3: a PDF answer must reference a file the same user uploaded.
    if (file.ownerId !== auth.userId) throw forbidden('Ce fichier ne vous appartient pas.');
    return id;
  }
  throw badRequest('Cet exercice n’attend pas de réponse.');
}

/**
 * GET /answer/chapter/{id}: the caller's current answer per exercise of the chapter; grades and
 * comments only once the chapter's results are published (`analysis`).
 */
export async function listMyChapterAnswers(db: Db, auth: AuthContext, chapterId: string): Promise<MyAnswer[]> {
  const ctx = await loadChapterContext(db, auth, chapterId);
  const rows = await db
    .selectDistinctOn([answers.exerciseId], {
      exercise: answers.exerciseId,
      answer: answers.answer,
      seq: answers.seq,
      createdAt: answers.createdAt,
      grade: answers.grade,
      gradeComment: answers.gradeComment,
    })
    .from(answers)
    .innerJoin(exercises, eq(exercises.id, answers.exerciseId))
    .where(and(eq(exercises.chapterId, chapterId), eq(answers.userId, auth.userId), isNull(answers.withdrawnAt)))
    .orderBy(answers.exerciseId, desc(answers.seq), desc(answers.createdAt));
  const published = ctx.chapter.analysis;
  return rows.map((r) => ({
    exercise: r.exercise,
    answer: r.answer,
    seq: r.seq,
    timestamp: r.createdAt.toISOString(),
    ...(published ? { grade: r.grade, grade_comment: r.gradeComment } : {}),
  }));
}
