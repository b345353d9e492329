import { numericAnswerError, PDF_PATH_PATTERN, type AnswerSave, type AnswerSaved } from '@olympe/contract';
import { eq } from 'drizzle-orm';
import { authFromRow, checkAuth, claimsOf, SESSION_EXPIRED_MESSAGE, type AuthContext, type AuthRow } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { files } from '../db/schema.js';
import { badRequest, notFound, unauthorized } from '../errors.js';
import { queryExerciseContext } from '../sessions/queries.js';
import { exerciseContextOf } from '../sessions/service.js';
import { assertMayAnswerWithFile, assertMaySaveAnswer } from './policies.js';
import { guardedInsertOne, type InsertResult } from './queries.js';
import { memoKey, saveMemos } from './save-memos.js';
import { saveQueueOf } from './save-queue.js';

async function guardedInsert(
  db: Db,
  auth: AuthContext,
  values: { exerciseId: string; answer: string; fileId: string | null; seq: number; ip: string; fingerprint: string | null },
): Promise<InsertResult> {
  return guardedInsertOne(db, { ...values, userId: auth.userId, actorId: auth.actorId ?? null, sessionId: auth.sessionId ?? null });
}

/**
 * POST /answer (docs/product.md#design-3 Answers): appends one row to the history. A save repeating a stored
 * (user, exercise, seq) is a no-op; an older seq is kept in the history but never becomes the
 * current answer, which is the row with the highest seq. Refused after the deadline + grace.
 *
 * Hot path (bench/rush/README.md): the first save of a pupil on an exercise loads the context,
 * decides, and inserts under the context's fingerprint (2 statements); later saves within the
 * decision's time window send only the guarded insert (1 statement), and fall back to the full
 * path when anything the decision depends on changed. Behaviour is the same as deciding afresh.
 */
export async function saveAnswer(db: Db, requestAuth: AuthContext, input: AnswerSave, ip: string): Promise<AnswerSaved> {
  let auth = requestAuth;
  const now = new Date();
  const seq = input.seq ?? now.getTime();
  const key = memoKey(auth, input.exerciseId);
  const memo = saveMemos.get(key);
  const t = now.getTime();
  if (memo && t >= memo.fromMs && t < memo.untilMs && isNumericAnswer(input.answer)) {
    const result = await saveQueueOf(db).submit({
      userId: auth.userId,
      actorId: auth.actorId ?? null,
      sessionId: auth.sessionId ?? null,
      exerciseId: input.exerciseId,
      answer: input.answer,
      seq,
      ip,
      fingerprint: memo.fingerprint,
    });
    if (result.matched) return { exercise: input.exerciseId, seq, current: !result.newer, duplicate: !result.inserted };
    saveMemos.delete(key);
  }
  for (let attempt = 0; ; attempt++) {
    const row = await queryExerciseContext(db, auth, input.exerciseId);
    if (!row) {
      // A refused token gets its 401 before the 404, as on any route.
      if (auth.unchecked && (await checkAuth(db, claimsOf(auth))).rejected) throw unauthorized(SESSION_EXPIRED_MESSAGE, 'session_expired');
      throw notFound('Exercice introuvable.');
    }
    // The row carries the token checks (SELF_CHECKED_ROUTES): the same verdict and roles as resolveAuth.
    if (auth.tokenVersion !== undefined) {
      const checked = authFromRow(claimsOf(auth), row.user_id ? (row as AuthRow) : undefined);
      if (!checked.auth) throw unauthorized(SESSION_EXPIRED_MESSAGE, 'session_expired');
      auth = checked.auth;
    }
    const ctx = exerciseContextOf(row, auth, now);
    const { exercise } = ctx;
    assertMaySaveAnswer(ctx, now);
    const fileId = await checkAnswerValue(db, auth, exercise.answerFormat, input.answer);
    // A PDF answer's file check is not part of the fingerprint: it is inserted unguarded, as is a
    // save whose context changed twice between the read and the insert (the behaviour before the memo).
    const guard = exercise.answerFormat === 'numeric' && attempt < 2 ? row.fingerprint : null;
    const result = await guardedInsert(db, auth, { exerciseId: exercise.id, answer: input.answer, fileId, seq, ip, fingerprint: guard });
    if (!result.matched) continue;
    if (guard && ctx.state.status === 'started') {
      saveMemos.set(key, {
        fingerprint: guard,
        fromMs: ctx.rule?.accessStart?.getTime() ?? -Infinity,
        untilMs: ctx.state.deadline?.getTime() ?? Infinity,
      });
    }
    return { exercise: exercise.id, seq, current: !result.newer, duplicate: !result.inserted };
  }
}

const isNumericAnswer = (answer: string) => numericAnswerError(answer) === null;

/** Validates the value for the exercise's format; returns the referenced file id of a PDF answer. */
async function checkAnswerValue(db: Db, auth: AuthContext, format: string, answer: string): Promise<string | null> {
  if (format === 'numeric') {
    // The text is stored as typed (the corrector reads it); it must be a number the automatic
    // correction can read, or empty (clearing an answer is always allowed).
    const error = numericAnswerError(answer);
    if (error) throw badRequest(error);
    return null;
  }
  if (format === 'pdf') {
    const id = PDF_PATH_PATTERN.exec(answer)?.[1];
    if (!id) throw badRequest('Réponse invalide : le chemin d’un PDF téléversé est attendu.');
    const [file] = await db.select({ ownerId: files.ownerId }).from(files).where(eq(files.id, id));
    if (!file) throw badRequest('Fichier PDF introuvable : téléversez-le d’abord.');
    assertMayAnswerWithFile(auth, file);
    return id;
  }
  throw badRequest('Cet exercice n’attend pas de réponse.');
}
