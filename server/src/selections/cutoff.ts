import { type Category, cutoffAboveMaxMessage, type CutoffSettings, SCORE_EPSILON } from '@olympe/contract';
import { eq } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db } from '../db/client.js';
import { selectionCategories } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { exercisesOf, maxScoreOf } from './board-data.js';
import { assertMayDecide, selectionRightOf } from './policies.js';
import { presentCategory } from './presenters.js';
import { findCategory, findSelection } from './queries.js';

/**
 * PUT /selection/{id}/categories/{categoryId}/cutoff (decide): where a category's cut-off is, what the tie at it
 * does, and its quotas (decision 156). A cut-off above the selection's maximum score is refused. Audited.
 */
export async function setCutoff(db: Db, auth: AuthContext, id: string, categoryId: string, input: CutoffSettings): Promise<Category> {
  return db.transaction(async (tx) => {
    assertMayDecide(await selectionRightOf(tx, auth, id));
    const selection = await findSelection(tx, id);
    const { category } = await findCategory(tx, id, categoryId);
    if (input.cutoff !== null) {
      const max = maxScoreOf(
        selection,
        await exercisesOf(
          tx,
          selection.chapters.map((c) => c.chapterId),
        ),
      );
      if (input.cutoff > max + SCORE_EPSILON) throw badRequest(cutoffAboveMaxMessage(max));
    }
    const [updated] = await tx.update(selectionCategories).set(input).where(eq(selectionCategories.id, categoryId)).returning();
    const { cutoff, atCutoff, minGirls, maxPerSchool } = category;
    await audit(tx, auth, 'selection.cutoff', categoryId, {
      selectionId: id,
      before: { cutoff, atCutoff, minGirls, maxPerSchool },
      after: input,
    });
    return presentCategory(updated!);
  });
}
