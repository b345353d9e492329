import { type Board, computeCategory } from '@olympe/contract';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/client.js';
import { type BoardData, loadBoardData } from './board-data.js';
import { namesShown, selectionRightOf } from './policies.js';
import { presentBoard, presentDecisions } from './presenters.js';
import { type CategoryRow, categoriesOf, decisionsOf, findSelection } from './queries.js';
import { decisionsByIndex, type LatestVersion, latestVersion, qualifiedPairs } from './versions.js';

/**
 * Decision 157, « drift »: the latest version's settings (cut-offs, quotas, decisions) applied to today's scores; the
 * pupils on the board whose status in a category differs from what that version recorded (a regrade since).
 */
async function driftOf(db: Tx, version: LatestVersion, categories: CategoryRow[], board: BoardData): Promise<Board['drift']> {
  const was = new Set((await qualifiedPairs(db, version.id)).map((p) => `${p.user_id} ${p.category_id}`));
  const drift: Board['drift'] = [];
  for (const settings of version.settings.categories) {
    const index = categories.findIndex((c) => c.id === settings._id);
    if (index < 0) continue;
    const outcome = computeCategory(board, index, settings, decisionsByIndex(version.settings.decisions, settings._id, board));
    const now = new Set(outcome.members.filter((_i, k) => outcome.selected[k]));
    board.userIds.forEach((userId, i) => {
      const before = was.has(`${userId} ${settings._id}`);
      if (before !== now.has(i))
        drift.push({ key: board.keys[i]!, categoryId: settings._id, was: before, now: !before, score: board.scores[i]! });
    });
  }
  return drift;
}

/** GET /selection/{id}/board: the jury's board (any right), pseudonymous until names are shown (decision 155). */
export async function getBoard(db: Tx, secret: string, auth: AuthContext, id: string): Promise<Board> {
  const right = await selectionRightOf(db, auth, id);
  const selection = await findSelection(db, id);
  const categories = await categoriesOf(db, id);
  const board = await loadBoardData(db, secret, selection, categories);
  const decisions = presentDecisions(await decisionsOf(db, id), board.keyOf);
  const version = await latestVersion(db, id);
  const drift = version ? await driftOf(db, version, categories, board) : [];
  return presentBoard(board, namesShown(version?.number ?? 0, selection.namesRevealedAt, right), decisions, drift);
}
