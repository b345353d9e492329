import type { versionChangesSchema } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/client.js';
import { one, rows } from '../db/query.js';
import { notFound } from '../errors.js';
import { participantKeys } from './board-data.js';
import { boardKeys } from './keys.js';
import { namesShown, selectionRightOf } from './policies.js';
import { presentVersionChanges } from './presenters.js';
import { findSelection } from './queries.js';

export type VersionChanges = z.output<typeof versionChangesSchema>;

const VERSION_NOT_FOUND_MESSAGE = 'Version introuvable.';

async function versionId(db: Tx, selectionId: string, number: number): Promise<string> {
  const found = await one(
    db,
    z.object({ id: z.string() }),
    sql`SELECT id FROM selection_versions WHERE selection_id = ${selectionId}::uuid AND number = ${number}`,
  );
  if (!found) throw notFound(VERSION_NOT_FOUND_MESSAGE);
  return found.id;
}

const changeRow = z.object({
  user_id: z.string(),
  category_id: z.string(),
  before: z.boolean(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
});
export type ChangeRow = z.output<typeof changeRow>;

/**
 * GET /selection/{id}/versions/{n}/changes?from=m (read): per pupil and category, whose status differs between version m
 * (n − 1 by default; 0: before any version) and version n (decision 157). Keys as on the board; names once shown.
 */
export async function versionChanges(
  db: Tx,
  secret: string,
  auth: AuthContext,
  id: string,
  n: number,
  from?: number,
): Promise<VersionChanges> {
  const right = await selectionRightOf(db, auth, id);
  const selection = await findSelection(db, id);
  const after = await versionId(db, id, n);
  const m = from ?? n - 1;
  const before = m === 0 ? null : await versionId(db, id, m);
  const found = await rows(
    db,
    changeRow,
    sql`WITH a AS (SELECT o.user_id, q.c FROM selection_outcomes o CROSS JOIN LATERAL unnest(o.qualified_in) AS q(c) WHERE o.version_id = ${before}::uuid),
             b AS (SELECT o.user_id, q.c FROM selection_outcomes o CROSS JOIN LATERAL unnest(o.qualified_in) AS q(c) WHERE o.version_id = ${after}::uuid),
             d AS (SELECT coalesce(a.user_id, b.user_id) AS user_id, coalesce(a.c, b.c)::text AS category_id, a.user_id IS NOT NULL AS before
                   FROM a FULL JOIN b ON a.user_id = b.user_id AND a.c = b.c WHERE a.user_id IS NULL OR b.user_id IS NULL)
        SELECT d.user_id, d.category_id, d.before, u.first_name, u.last_name FROM d JOIN users u ON u.id = d.user_id
        ORDER BY u.last_name, u.first_name, d.user_id, d.category_id`,
  );
  // The board's keys: those of today's participants; a pupil no longer among them gets theirs from the same secret.
  const keyOf = await participantKeys(db, secret, selection);
  const absent = found.map((r) => r.user_id).filter((userId) => !keyOf.has(userId));
  for (const [userId, key] of boardKeys(secret, id, absent)) keyOf.set(userId, key);
  const versions = await one(
    db,
    z.object({ n: z.number() }),
    sql`SELECT count(*)::int AS n FROM selection_versions WHERE selection_id = ${id}::uuid`,
  );
  return presentVersionChanges(found, keyOf, namesShown(versions?.n ?? 0, selection.namesRevealedAt, right));
}
