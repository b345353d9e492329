import {
  computeCategory,
  CUTOFF_MISSING_MESSAGE,
  TIE_UNRESOLVED_MESSAGE,
  VERSION_REASON_MISSING_MESSAGE,
  type VersionSummary,
} from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { column, one } from '../db/query.js';
import { badRequest, conflict } from '../errors.js';
import { type BoardData, loadBoardData } from './board-data.js';
import { assertMayDecide, selectionRightOf } from './policies.js';
import { presentVersionSummary } from './presenters.js';
import { type CategoryRow, categoriesOf, decisionsOf, findSelection, personName, versionsOf } from './queries.js';
import { categorySettings, decisionsByIndex, type VersionSettings } from './versions.js';

const CONCURRENT_FREEZE_MESSAGE = 'Une autre version de cette liste vient d’être gelée\u00a0: rechargez la page et recommencez.';

/** One row per participant: their score, the categories they are in and those they are selected in. */
interface Outcome {
  user_id: string;
  score: number;
  categories: string[];
  qualified_in: string[];
}

/** Every category's list with `computeCategory`, the function the browser runs (decision 156); refused on an unresolved tie. */
function outcomesOf(board: BoardData, categories: CategoryRow[], decisions: VersionSettings['decisions']): Outcome[] {
  const outcomes: Outcome[] = board.userIds.map((userId, i) => ({
    user_id: userId,
    score: board.scores[i]!,
    categories: categories.filter((_c, bit) => (board.masks[i]! & (1 << bit)) !== 0).map((c) => c.id),
    qualified_in: [],
  }));
  categories.forEach((c, index) => {
    const outcome = computeCategory(board, index, categorySettings(c), decisionsByIndex(decisions, c.id, board));
    if (outcome.tieUnresolved) throw conflict(TIE_UNRESOLVED_MESSAGE(c.name));
    outcome.members.forEach((i, k) => {
      if (outcome.selected[k]) outcomes[i]!.qualified_in.push(c.id);
    });
  });
  return outcomes;
}

/** The version's row and its outcomes in one bulk insert (10,000 rows in one statement). */
async function insertVersion(
  tx: Tx,
  auth: AuthContext,
  id: string,
  number: number,
  reason: string,
  settings: VersionSettings,
  outcomes: Outcome[],
) {
  const version = await one(
    tx,
    z.object({ id: z.string() }),
    sql`INSERT INTO selection_versions (selection_id, number, reason, frozen_by, settings)
        VALUES (${id}::uuid, ${number}, ${reason}, ${auth.userId}::uuid, ${JSON.stringify(settings)}::jsonb) RETURNING id`,
  );
  await tx.execute(sql`
    INSERT INTO selection_outcomes (version_id, user_id, score, categories, qualified_in)
    SELECT ${version!.id}::uuid, o.user_id, o.score, o.categories, o.qualified_in
    FROM jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) AS o(user_id uuid, score float8, categories uuid[], qualified_in uuid[])`);
  return version!.id;
}

const isUniqueViolation = (error: unknown): boolean => {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === '23505') return true;
  return false;
};

/**
 * POST /selection/{id}/freeze (decide): a new numbered version (decision 157): settings (chapters, weights, categories
 * with their cut-offs and quotas, decisions) and every participant's outcome, in one transaction. From the second
 * version on, a reason is required. The selection's row is locked so two freezes cannot take one number. Audited.
 */
export async function freezeVersion(db: Db, secret: string, auth: AuthContext, id: string, reason: string): Promise<VersionSummary> {
  try {
    return await db.transaction(async (tx) => {
      assertMayDecide(await selectionRightOf(tx, auth, id));
      await tx.execute(sql`SELECT id FROM selections WHERE id = ${id}::uuid FOR UPDATE`);
      const selection = await findSelection(tx, id);
      const last = await one(
        tx,
        z.object({ n: column.number }),
        sql`SELECT coalesce(max(number), 0) AS n FROM selection_versions WHERE selection_id = ${id}::uuid`,
      );
      const number = (last?.n ?? 0) + 1;
      if (number > 1 && reason === '') throw badRequest(VERSION_REASON_MISSING_MESSAGE);
      const categories = await categoriesOf(tx, id);
      const missing = categories.find((c) => c.cutoff === null);
      if (missing) throw conflict(CUTOFF_MISSING_MESSAGE(missing.name));
      const board = await loadBoardData(tx, secret, selection, categories);
      const decisions = (await decisionsOf(tx, id)).map((d) => ({
        categoryId: d.category_id,
        userId: d.user_id,
        decision: d.decision,
        reason: d.reason,
        decidedBy: personName(d.first_name, d.last_name) || null,
      }));
      const outcomes = outcomesOf(board, categories, decisions);
      const settings: VersionSettings = { chapters: selection.chapters, categories: categories.map(categorySettings), decisions };
      await insertVersion(tx, auth, id, number, reason, settings, outcomes);
      const qualified = outcomes.filter((o) => o.qualified_in.length > 0).length;
      await audit(tx, auth, 'selection.freeze', id, { number, reason, participants: outcomes.length, qualified });
      return presentVersionSummary((await versionsOf(tx, id)).find((v) => v.number === number)!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(CONCURRENT_FREEZE_MESSAGE);
    throw error;
  }
}
