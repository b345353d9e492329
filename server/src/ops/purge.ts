import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, rows } from '../db/query.js';
import type { FileStore } from '../files/store.js';
import { ANONYMOUS_EMAIL_DOMAIN, BIN_DAYS } from '@olympe/contract';
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
  const found = await rows(
    db,
    z.object({ id: z.string(), has_answers: z.boolean() }),
    sql`
    SELECT u.id, EXISTS (SELECT 1 FROM answers a WHERE a.user_id = u.id) AS has_answers
    FROM users u
    WHERE NOT u.is_admin
      AND u.email NOT LIKE ${`%@${ANONYMOUS_EMAIL_DOMAIN}`}
      AND u.created_at < ${cutoff}::timestamptz
      AND (u.last_login_at IS NULL OR u.last_login_at < ${cutoff}::timestamptz)
      AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.user_id = u.id AND a.created_at >= ${cutoff}::timestamptz)
    ORDER BY u.created_at`,
  );
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

export interface BinPurgeResult {
  chapters: number;
  exercises: number;
  /** Files (answer PDFs, scans) no longer used by anything once the entries are gone: rows deleted, bytes erased. */
  filesErased: number;
}

/**
 * Empties the bin (decision 73): chapters and exercises deleted more than BIN_DAYS days before `now`
 * are deleted for good, with their answers and grades (cascade), and the PDF files only those answers
 * and the chapters' unsorted scans used (the rows in the transaction, the bytes once it committed).
 * Each entry is written to the audit log, with no actor (the command). `dryRun` only counts.
 */
export async function purgeBin(deps: { db: Db; store: FileStore }, now: Date, opts: { dryRun?: boolean } = {}): Promise<BinPurgeResult> {
  const { db } = deps;
  const cutoff = new Date(now.getTime() - BIN_DAYS * 86_400_000).toISOString();
  const doomedExercises = sql`
    SELECT e.id FROM exercises e JOIN chapters c ON c.id = e.chapter_id
    WHERE e.deleted_at < ${cutoff}::timestamptz OR c.deleted_at < ${cutoff}::timestamptz`;
  const doomedFiles = sql`
    SELECT file_id FROM answers WHERE file_id IS NOT NULL AND exercise_id IN (${doomedExercises})
    UNION SELECT file_id FROM unlabeled_answers WHERE chapter_id IN (SELECT id FROM chapters WHERE deleted_at < ${cutoff}::timestamptz)`;
  if (opts.dryRun) {
    const [r] = await rows(
      db,
      z.object({ chapters: column.number, exercises: column.number, files: column.number }),
      sql`
      SELECT (SELECT count(*)::int FROM chapters WHERE deleted_at < ${cutoff}::timestamptz) AS chapters,
             (SELECT count(*)::int FROM exercises e JOIN chapters c ON c.id = e.chapter_id
              WHERE e.deleted_at < ${cutoff}::timestamptz AND (c.deleted_at IS NULL OR c.deleted_at >= ${cutoff}::timestamptz)) AS exercises,
             (SELECT count(*)::int FROM (${doomedFiles}) f
              WHERE NOT EXISTS (SELECT 1 FROM answers a WHERE a.file_id = f.file_id AND a.exercise_id NOT IN (${doomedExercises}))
                AND NOT EXISTS (SELECT 1 FROM unlabeled_answers u WHERE u.file_id = f.file_id
                                AND u.chapter_id NOT IN (SELECT id FROM chapters WHERE deleted_at < ${cutoff}::timestamptz))) AS files`,
    );
    return { chapters: Number(r.chapters), exercises: Number(r.exercises), filesErased: Number(r.files) };
  }
  const { result, fileIds } = await db.transaction(async (tx) => {
    const candidates = (await rows(tx, z.object({ file_id: z.string() }), doomedFiles)).map((r) => r.file_id);
    // Exercises first: an exercise of a purged chapter goes with its chapter and is counted there.
    const exercises = await rows(
      tx,
      z.object({ id: z.string(), title: z.string() }),
      sql`
      DELETE FROM exercises e USING chapters c
      WHERE c.id = e.chapter_id AND e.deleted_at < ${cutoff}::timestamptz AND (c.deleted_at IS NULL OR c.deleted_at >= ${cutoff}::timestamptz)
      RETURNING e.id, e.title`,
    );
    const chapters = await rows(
      tx,
      z.object({ id: z.string(), title: z.string() }),
      sql`
      DELETE FROM chapters WHERE deleted_at < ${cutoff}::timestamptz RETURNING id, title`,
    );
    // A file another answer still points at (the same scan filed for a kept chapter) stays.
    const erased =
      candidates.length === 0
        ? []
        : await rows(
            tx,
            z.object({ id: z.string() }),
            sql`
            DELETE FROM files f WHERE f.id IN (SELECT x::uuid FROM json_array_elements_text(${JSON.stringify(candidates)}::json) AS x)
              AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.file_id = f.id)
              AND NOT EXISTS (SELECT 1 FROM unlabeled_answers u WHERE u.file_id = f.id)
            RETURNING f.id`,
          );
    const entries = [
      ...chapters.map((c) => ({ action: 'chapter.purge', id: c.id, title: c.title })),
      ...exercises.map((e) => ({ action: 'exercise.purge', id: e.id, title: e.title })),
    ];
    if (entries.length > 0) {
      await tx.execute(sql`
        INSERT INTO audit_log (action, target_id, details)
        SELECT x.action, x.id, jsonb_build_object('title', x.title)
        FROM json_to_recordset(${JSON.stringify(entries)}::json) AS x(action text, id uuid, title text)`);
    }
    return {
      result: { chapters: chapters.length, exercises: exercises.length, filesErased: erased.length },
      fileIds: erased.map((f) => f.id),
    };
  });
  await eraseFiles(deps.store, fileIds);
  return result;
}
