import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import type { FileStore } from '../files/store.js';
import { ANONYMOUS_EMAIL_DOMAIN } from '@olympe/contract';
import { eraseFiles, scrubUser } from './privacy.js';

export interface PurgeResult {
  /** Accounts with no answer: the row is deleted. */
  deleted: number;
  /** Accounts with answers: scrubbed, the answers stay anonymously for statistics. */
  anonymised: number;
  filesErased: number;
}

/** 1 January of `year`, midnight in Paris (winter time, UTC+1). */
export const purgeCutoff = (year: number) => new Date(Date.UTC(year, 0, 1) - 3600_000);

/**
 * Accounts inactive since before 1 January of `year` (no login, no answer, no creation since):
 * admins and already anonymised accounts are never touched.
 */
export async function findInactiveUsers(db: Db, year: number): Promise<Array<{ id: string; hasAnswers: boolean }>> {
  const cutoff = purgeCutoff(year).toISOString();
  const found = await rows<{ id: string; has_answers: boolean }>(db, sql`
    SELECT u.id, EXISTS (SELECT 1 FROM answers a WHERE a.user_id = u.id) AS has_answers
    FROM users u
    WHERE NOT u.is_admin
      AND u.email NOT LIKE ${`%@${ANONYMOUS_EMAIL_DOMAIN}`}
      AND u.created_at < ${cutoff}::timestamptz
      AND (u.last_login_at IS NULL OR u.last_login_at < ${cutoff}::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.user_id = u.id AND a.created_at >= ${cutoff}::timestamptz)
    ORDER BY u.created_at`);
  return found.map((r) => ({
    id: r.id,
    hasAnswers: !!r.has_answers,
  }));
}

/**
 * `npm run purge -- --before YEAR` (docs/operations.md "Données personnelles"): accounts without
 * answers are deleted, the others anonymised; each account in its own transaction, so a failure
 * leaves the ones already done done. `dryRun` only counts.
 */
export async function purgeInactiveUsers(
  deps: { db: Db; store: FileStore },
  year: number,
  opts: { dryRun?: boolean } = {},
): Promise<PurgeResult> {
  const candidates = await findInactiveUsers(deps.db, year);
  const result: PurgeResult = { deleted: 0, anonymised: 0, filesErased: 0 };
  if (opts.dryRun) {
    for (const c of candidates) c.hasAnswers ? result.anonymised++ : result.deleted++;
    return result;
  }
  for (const candidate of candidates) {
    const { fileIds, deleted } = await deps.db.transaction(async (tx) => {
      const ids = await scrubUser(tx, candidate.id);
      let gone = false;
      if (!candidate.hasAnswers) {
        // A row some other table still points at without ON DELETE stays, scrubbed.
        gone = await tx
          .transaction(async (inner) => {
            await inner.execute(sql`DELETE FROM users WHERE id = ${candidate.id}::uuid`);
            return true;
          })
          .catch(() => false);
      }
      await tx.execute(sql`
        INSERT INTO audit_log (action, target_id, details)
        VALUES (${gone ? 'user.purge.delete' : 'user.purge.anonymise'}, ${candidate.id}::uuid, ${JSON.stringify({ year })}::jsonb)`);
      return { fileIds: ids, deleted: gone };
    });
    await eraseFiles(deps.store, fileIds);
    result.filesErased += fileIds.length;
    deleted ? result.deleted++ : result.anonymised++;
  }
  return result;
}
