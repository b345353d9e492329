import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import type { FileStore } from './store.js';

/**
 * The reaper of unused files (decision 133): a PDF sent through POST /pdfs or a resumable upload becomes a
 * file at once, before the answer or the scan that uses it is saved. One that nothing uses a day later was
 * never used and never will be: its row and bytes are removed, so an account cannot fill the disk with
 * files it never hands in.
 *
 * « Used » is every reference to a file the schema has, whatever the row's state: any answer row (the current
 * one, an older one, a withdrawn one, a hidden one), by its `file_id` or by its text `pdfs/<id>.pdf`, and any
 * scan waiting for or done with sorting (`unlabeled_answers.file_id`). Both `file_id` columns are foreign keys:
 * a reference this query missed would make the DELETE fail, never lose a file.
 */
export const UNUSED_FILE_SECONDS = 24 * 3600;
/** How often an instance running background jobs looks for unused files. */
export const FILE_REAPER_MS = 3600_000;
/** Files removed per statement: a backlog goes in several short transactions. */
const BATCH = 500;

/**
 * Removes the files older than UNUSED_FILE_SECONDS that nothing references; returns how many. Rows are
 * deleted first (locked with SKIP LOCKED: an answer being saved with the file holds its row, and the file
 * stays), then the bytes once the rows are gone. Several instances may run it at once.
 */
export async function reapUnusedFiles(deps: {
  db: Db;
  store: FileStore;
  log?: FastifyBaseLogger;
  onReaped?: (count: number) => void;
}): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await rows(
      deps.db,
      z.object({ id: z.string() }),
      sql`
      WITH doomed AS (
        SELECT f.id FROM files f
        WHERE f.created_at < now() - make_interval(secs => ${UNUSED_FILE_SECONDS})
          AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.file_id = f.id)
          AND NOT EXISTS (SELECT 1 FROM unlabeled_answers u WHERE u.file_id = f.id)
          AND NOT EXISTS (SELECT 1 FROM upload_slots s WHERE s.id = f.id)
          -- An answer names its file by path too: one whose file_id was not set still keeps it.
          AND ('pdfs/' || f.id::text || '.pdf') NOT IN (SELECT a.answer FROM answers a WHERE a.answer LIKE 'pdfs/%')
        ORDER BY f.created_at
        LIMIT ${BATCH}
        FOR UPDATE OF f SKIP LOCKED)
      DELETE FROM files f USING doomed d
      WHERE f.id = d.id
      RETURNING f.id`,
    );
    for (const { id } of gone) {
      try {
        await deps.store.delete(id);
      } catch (err) {
        // The row is gone: the bytes are unreachable, only disk is lost. Logged for the operator.
        deps.log?.warn({ err, fileId: id }, 'unused file: bytes not removed');
      }
    }
    total += gone.length;
    if (gone.length > 0) deps.onReaped?.(gone.length);
    if (gone.length < BATCH) return total;
  }
}

/**
 * Runs the reaper at once and then every `everyMs` until stopped, as the rate-limit purge does
 * (http/rate-limit.ts `startRateLimitPurge`).
 */
export function startFileReaper(
  deps: { db: Db; store: FileStore; log: FastifyBaseLogger; onReaped?: (count: number) => void },
  everyMs = FILE_REAPER_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = reapUnusedFiles(deps)
      .then((n) => {
        if (n > 0) deps.log.info({ files: n }, 'unused files removed');
      })
      .catch((err: unknown) => deps.log.error({ err }, 'unused files: reaper failed'));
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
