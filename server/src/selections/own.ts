import type { OwnQualification } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { presentOwnQualification } from './presenters.js';
import { categoryOf, loadSelectionVersion, outcomesOf } from './qualification.js';

/**
 * GET /selection/mine (docs/product.md#selections, decision 157): the published selections whose latest version
 * lists the caller, with their status, category and its cut-off. Only the caller's own rows are ever read.
 */
export async function listOwnQualifications(db: Db, auth: AuthContext, now = new Date()): Promise<OwnQualification[]> {
  const mine = await rows(
    db,
    z.object({ selection_id: z.string() }),
    sql`SELECT l.selection_id FROM (
          SELECT DISTINCT ON (v.selection_id) v.id, v.selection_id, s.publish_at
          FROM selection_versions v JOIN selections s ON s.id = v.selection_id
          WHERE s.publish_at <= ${now.toISOString()}::timestamptz
          ORDER BY v.selection_id, v.number DESC) l
        JOIN selection_outcomes o ON o.version_id = l.id AND o.user_id = ${auth.userId}::uuid
        ORDER BY l.publish_at DESC, l.selection_id`,
  );
  const out: OwnQualification[] = [];
  for (const { selection_id: selectionId } of mine) {
    const selection = await loadSelectionVersion(db, selectionId, now);
    const [outcome] = selection.version ? await outcomesOf(db, selection.version.id, [auth.userId]) : [];
    if (!selection.published || !selection.version || !outcome) continue;
    out.push(presentOwnQualification(selection, outcome, categoryOf(selection.version.categories, outcome)));
  }
  return out;
}
