import { type Decision, DECISION_REASON_MISSING_MESSAGE, type DecisionKind } from '@olympe/contract';
import { and, eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db } from '../db/client.js';
import { selectionDecisions } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { participantKeys } from './board-data.js';
import { assertMayDecide, selectionRightOf } from './policies.js';
import { presentDecisions } from './presenters.js';
import { decisionsOf, findCategory, findSelection } from './queries.js';

export interface DecisionInput {
  categoryId: string;
  key: string;
  decision: DecisionKind | null;
  reason: string;
}

/**
 * PUT /selection/{id}/decision (decide): include or exclude one pupil of one category, with a reason, or undo it
 * (decision 156). The pupil is named by their board key, mapped back by recomputing the participants' keys. Audited.
 */
export async function setDecision(db: Db, secret: string, auth: AuthContext, id: string, input: DecisionInput): Promise<Decision[]> {
  return db.transaction(async (tx) => {
    assertMayDecide(await selectionRightOf(tx, auth, id));
    const selection = await findSelection(tx, id);
    await findCategory(tx, id, input.categoryId);
    const keyOf = await participantKeys(tx, secret, selection);
    const userId = [...keyOf].find(([, key]) => key === input.key)?.[0];
    if (!userId) throw notFound('Aucun élève du tableau ne porte cette clé.');
    const where = and(eq(selectionDecisions.categoryId, input.categoryId), eq(selectionDecisions.userId, userId));
    if (input.decision === null) {
      await tx.delete(selectionDecisions).where(where);
    } else {
      if (input.reason === '') throw badRequest(DECISION_REASON_MISSING_MESSAGE);
      const row = { decision: input.decision, reason: input.reason, decidedBy: auth.userId, decidedAt: new Date() };
      await tx
        .insert(selectionDecisions)
        .values({ categoryId: input.categoryId, userId, ...row })
        .onConflictDoUpdate({ target: [selectionDecisions.categoryId, selectionDecisions.userId], set: row });
    }
    await audit(tx, auth, 'selection.decision', id, {
      categoryId: input.categoryId,
      userId,
      decision: input.decision,
      reason: input.reason,
    });
    return presentDecisions(await decisionsOf(tx, id), keyOf);
  });
}
