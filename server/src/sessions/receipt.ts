import { createHmac } from 'node:crypto';
import type { Receipt, ReceiptLine } from '@olympe/contract';
import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { answers, exercises, users } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { pupilAuth } from './finish.js';
import { assertMaySeeReceipt, isSessionStaff } from './policies.js';
import { presentReceipt } from './presenters.js';
import { loadChapterContext } from './service.js';

export const RECEIPT_NOT_YET_MESSAGE = 'Le reçu est disponible une fois l’épreuve terminée.';
export const RECEIPT_PAPER_MESSAGE = 'Une épreuve sur papier n’a pas de reçu en ligne : les copies sont celles du centre.';
export const RECEIPT_WHO_MESSAGE = 'Indiquez l’élève dont vous vérifiez le reçu (?user=…).';

/** Crockford's base32: no I, L, O, U, so a code read aloud or copied by hand is not misread. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 10;

/**
 * The receipt code of a list: HMAC-SHA256 keyed by the server's secret over a canonical text (chapter,
 * pupil, then per exercise in order its id and the current answer's id, seq and text), 10 base32
 * characters (50 bits) grouped « XXXX-XXXX-XX ». Nobody without the secret can make a matching code.
 */
export function receiptCode(
  secret: string,
  input: { chapterId: string; userId: string; lines: Array<ReceiptLine & { answerId: string | null }> },
): string {
  const canonical = [
    'olympe-receipt-v1',
    input.chapterId,
    input.userId,
    ...input.lines.map((l) => JSON.stringify([l.exercise, l.answerId, l.seq, l.answer])),
  ].join('\n');
  const digest = createHmac('sha256', secret).update(canonical).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < CODE_LENGTH) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === CODE_LENGTH) break;
  }
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8)}`;
}

/**
 * GET /chapter/receipt/{id}: the pupil's own receipt once their session is over (409 before); with
 * `?user=` for admins and members, the same receipt recomputed from the database now, so that a code
 * a pupil shows can be compared (decision 44).
 */
export async function getReceipt(db: Db, auth: AuthContext, secret: string, chapterId: string, user?: string): Promise<Receipt> {
  assertMaySeeReceipt(auth, user);
  const staff = isSessionStaff(auth);
  if (staff && !user) throw badRequest(RECEIPT_WHO_MESSAGE);
  const userId = user ?? auth.userId;
  const [pupil] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!pupil) throw notFound('Utilisateur introuvable.');
  const ctx = await loadChapterContext(db, staff ? pupilAuth(userId) : auth, chapterId);
  if (ctx.chapter.offline) throw conflict(RECEIPT_PAPER_MESSAGE);
  if (ctx.state.status !== 'after') throw conflict(RECEIPT_NOT_YET_MESSAGE);

  const exerciseRows = await db
    .select({ id: exercises.id, title: exercises.title, position: exercises.position, answerFormat: exercises.answerFormat })
    .from(exercises)
    .where(and(eq(exercises.chapterId, chapterId), isNull(exercises.deletedAt)))
    .orderBy(asc(exercises.position), asc(exercises.id));
  // The current answer is the one GET /answer/chapter shows and grading reads: highest seq, then latest.
  const current = await db
    .selectDistinctOn([answers.exerciseId], {
      id: answers.id,
      exercise: answers.exerciseId,
      answer: answers.answer,
      seq: answers.seq,
      createdAt: answers.createdAt,
    })
    .from(answers)
    .innerJoin(exercises, eq(exercises.id, answers.exerciseId))
    .where(and(eq(exercises.chapterId, chapterId), isNull(exercises.deletedAt), eq(answers.userId, userId), isNull(answers.withdrawnAt)))
    .orderBy(answers.exerciseId, desc(answers.seq), desc(answers.createdAt));
  const byExercise = new Map(current.map((a) => [a.exercise, a]));
  const lines = exerciseRows.map((e) => {
    const a = byExercise.get(e.id);
    return {
      exercise: e.id,
      title: e.title,
      position: e.position,
      answerFormat: e.answerFormat,
      answer: a?.answer ?? null,
      seq: a?.seq ?? null,
      timestamp: a?.createdAt.toISOString() ?? null,
      answerId: a?.id ?? null,
    };
  });
  const code = receiptCode(secret, { chapterId, userId, lines });
  return presentReceipt({ ctx, chapterId, userId, pupil, lines, code });
}
