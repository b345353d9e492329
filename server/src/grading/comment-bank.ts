import { BANK_COMMENTS_MAX, type BankComment, type BankCommentPatch } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { assignmentsOf } from './assignments.js';
import { assertMayCurateBank, assertMayUseBank } from './policies.js';
import { presentBankComment } from './presenters.js';
import { EXERCISE_NOT_FOUND } from './queries.js';

/**
 * The exercise's comment bank (docs/product.md#returned-copies, decision 160): its correctors read it and add to it while
 * grading, admins reword, reorder and retire. A retired remark stays (annotations copied its text, the statistics count it).
 */

const REMARK_NOT_FOUND = 'Remarque introuvable dans la banque de cet exercice.';
const BANK_FULL_MESSAGE = `La banque de cet exercice est pleine (${BANK_COMMENTS_MAX} remarques au plus) : retirez-en d’abord.`;

const bankRowShape = z.object({ id: z.string(), text: z.string(), position: column.number, uses: column.number });
export type BankRow = z.output<typeof bankRowShape>;

/** The exercise (live, in a live chapter), locked when the bank is written so two additions get two places. */
async function loadExercise(db: Tx, exerciseId: string, lock = false): Promise<void> {
  const found = await one(
    db,
    z.object({ id: z.string() }),
    sql`SELECT e.id FROM exercises e JOIN chapters c ON c.id = e.chapter_id
        WHERE e.id = ${exerciseId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL ${lock ? sql`FOR UPDATE OF e` : sql``}`,
  );
  if (!found) throw notFound(EXERCISE_NOT_FOUND);
}

async function assertCorrectorOf(db: Tx, auth: AuthContext, exerciseId: string): Promise<void> {
  assertMayUseBank(auth, (await assignmentsOf(db, [exerciseId])).get(exerciseId));
}

/** The live remarks with their uses (gradings that applied each), in bank order; one remark when `commentId` is given. */
function bankRows(db: Tx, exerciseId: string, commentId?: string): Promise<BankRow[]> {
  return rows(
    db,
    bankRowShape,
    sql`SELECT cb.id, cb.text, cb.position,
          (SELECT count(*) FROM gradings g WHERE g.exercise_id = cb.exercise_id AND cb.id = ANY(g.bank_comments))::int AS uses
        FROM comment_bank cb
        WHERE cb.exercise_id = ${exerciseId}::uuid AND cb.archived_at IS NULL
          ${commentId ? sql`AND cb.id = ${commentId}::uuid` : sql``}
        ORDER BY cb.position, cb.created_at, cb.id`,
  );
}

/** GET /exos/{id}/comments: the correctors of the exercise and admins. */
export async function listBankComments(db: Db, auth: AuthContext, exerciseId: string): Promise<BankComment[]> {
  await loadExercise(db, exerciseId);
  await assertCorrectorOf(db, auth, exerciseId);
  return (await bankRows(db, exerciseId)).map(presentBankComment);
}

/** POST /exos/{id}/comments: a remark added at the end of the bank, by an admin or a corrector of the exercise. Audited. */
export async function addBankComment(db: Db, auth: AuthContext, exerciseId: string, text: string): Promise<BankComment> {
  return db.transaction(async (tx) => {
    await loadExercise(tx, exerciseId, true);
    await assertCorrectorOf(tx, auth, exerciseId);
    const live = await bankRows(tx, exerciseId);
    if (live.length >= BANK_COMMENTS_MAX) throw badRequest(BANK_FULL_MESSAGE);
    const position = live.length === 0 ? 0 : live[live.length - 1].position + 1;
    const [created] = await rows(
      tx,
      z.object({ id: z.string() }),
      sql`INSERT INTO comment_bank (exercise_id, position, text, created_by)
          VALUES (${exerciseId}::uuid, ${position}, ${text}, ${auth.userId}::uuid) RETURNING id`,
    );
    await audit(tx, auth, 'comment_bank.add', created.id, { exerciseId, text });
    return presentBankComment({ id: created.id, text, position, uses: 0 });
  });
}

/** PATCH /exos/{id}/comments/{commentId} (admins): new text, and/or a new place (the others renumbered 0…n−1). Audited. */
export async function updateBankComment(
  db: Db,
  auth: AuthContext,
  exerciseId: string,
  commentId: string,
  patch: BankCommentPatch,
): Promise<BankComment> {
  assertMayCurateBank(auth);
  return db.transaction(async (tx) => {
    await loadExercise(tx, exerciseId, true);
    const live = await bankRows(tx, exerciseId);
    const index = live.findIndex((r) => r.id === commentId);
    if (index < 0) throw notFound(REMARK_NOT_FOUND);
    const before = live[index];
    if (patch.text !== undefined) await tx.execute(sql`UPDATE comment_bank SET text = ${patch.text} WHERE id = ${commentId}::uuid`);
    if (patch.position !== undefined) {
      const order = live.filter((r) => r.id !== commentId);
      order.splice(Math.min(patch.position, order.length), 0, before);
      for (const [position, row] of order.entries()) {
        if (row.position !== position) await tx.execute(sql`UPDATE comment_bank SET position = ${position} WHERE id = ${row.id}::uuid`);
      }
    }
    await audit(tx, auth, 'comment_bank.edit', commentId, {
      exerciseId,
      before: { text: before.text, position: index },
      after: { text: patch.text ?? before.text, position: patch.position ?? index },
    });
    return presentBankComment((await bankRows(tx, exerciseId, commentId))[0]);
  });
}

/** DELETE /exos/{id}/comments/{commentId} (admins): the remark is retired, not deleted (its uses stay counted). Audited. */
export async function archiveBankComment(db: Db, auth: AuthContext, exerciseId: string, commentId: string): Promise<{ message: string }> {
  assertMayCurateBank(auth);
  return db.transaction(async (tx) => {
    await loadExercise(tx, exerciseId, true);
    const [retired] = await rows(
      tx,
      z.object({ text: z.string() }),
      sql`UPDATE comment_bank SET archived_at = now()
          WHERE id = ${commentId}::uuid AND exercise_id = ${exerciseId}::uuid AND archived_at IS NULL RETURNING text`,
    );
    if (!retired) throw notFound(REMARK_NOT_FOUND);
    await audit(tx, auth, 'comment_bank.archive', commentId, { exerciseId, text: retired.text });
    return { message: 'Remarque retirée de la banque.' };
  });
}
