import { PAGES_ADDED_DISMISSED_MESSAGE } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { one } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { COPY_NOT_FOUND, isoMs, WITHDRAWN_MESSAGE } from './queries.js';

/**
 * Decision 139: a copy's « pages ajoutées après la note » notice ends when a corrector saves a grade on it
 * (`grade`) or dismisses it (`dismiss`); audited with the instant sorting set it. `copy`: the answer row as
 * read under its lock; nothing is written when it is not flagged.
 */
export async function clearPagesAdded(
  tx: Tx,
  auth: AuthContext,
  copy: { id: string; pages_added_at: string | null },
  how: 'grade' | 'dismiss',
): Promise<void> {
  if (copy.pages_added_at === null) return;
  await tx.execute(sql`UPDATE answers SET pages_added_at = NULL WHERE id = ${copy.id}::uuid`);
  await audit(tx, auth, how === 'grade' ? 'grading.pages_added_cleared' : 'grading.pages_added_dismissed', copy.id, {
    flaggedAt: copy.pages_added_at,
  });
}

const flaggedCopyShape = z.object({ id: z.string(), withdrawn: z.boolean(), pages_added_at: z.string().nullable() });

/**
 * DELETE /answer/pages-added/{answerId} (decision 139): a corrector who read the pages sorting added and
 * keeps the grade removes the notice. The copy must be its pupil's current one; idempotent otherwise.
 */
export async function dismissPagesAdded(db: Db, auth: AuthContext, answerId: string): Promise<{ message: string }> {
  return db.transaction(async (tx) => {
    const row = await one(
      tx,
      flaggedCopyShape,
      sql`SELECT a.id, a.withdrawn_at IS NOT NULL AS withdrawn, ${isoMs(sql`a.pages_added_at`)} AS pages_added_at FROM answers a
            JOIN exercises e ON e.id = a.exercise_id JOIN chapters c ON c.id = e.chapter_id
          WHERE a.id = ${answerId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL
          FOR UPDATE OF a`,
    );
    if (!row) throw notFound(COPY_NOT_FOUND);
    if (row.withdrawn) throw badRequest(WITHDRAWN_MESSAGE);
    await clearPagesAdded(tx, auth, row, 'dismiss');
    return { message: PAGES_ADDED_DISMISSED_MESSAGE };
  });
}
