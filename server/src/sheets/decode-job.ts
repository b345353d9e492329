import { SORTING_RESERVATION_MINUTES, type PageLabel } from '@olympe/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { exercises, unlabeledAnswers, users } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { FileStore } from '../files/store.js';
import { JOB_DEFAULTS, type Job } from '../jobs/queue.js';
import { addJob, type JobHandler } from '../jobs/worker.js';
import { readScanInWorker } from '../pdf/pdf-pool.js';
import type { PageReading, PageStatus } from './scan-reader.js';

/** Reads the QR codes of an uploaded scan (payload: {unlabeledId}). */
export const DECODE_JOB = 'sheets.decode';

/** Queues the reading of a scanned copy's codes (called when the copy is filed). */
export async function enqueueDecode(db: Tx, unlabeledId: string): Promise<void> {
  await addJob(db, DECODE_JOB, { unlabeledId });
}

/** Labels a copy whose every page was recognised, as a sorter would (sorting/label.ts). */
export type AutoLabel = (copy: { id: string; uploadedBy: string }, entries: PageLabel[]) => Promise<{ message: string }>;

export interface DecodeDeps {
  db: Db;
  store: FileStore;
  secret: string;
  /** Absent: suggestions only, every copy waits for a sorter. */
  autoLabel?: AutoLabel;
}

/**
 * The decode job: reads every page, keeps the recognised ones as suggestions for the sorting page
 * (pages without a readable code of this chapter are left to the sorter), and labels the copy at
 * once when every page was recognised and names its pupil. The scan is read in a PDF worker
 * (pdf/pdf-pool.ts), off the event loop.
 */
export function decodeJobHandler(deps: DecodeDeps): JobHandler {
  const decode = decodeCopy(deps);
  return async (job: Job) => {
    try {
      return await decode(job);
    } catch (err) {
      // The last try failed (the store, the database, a full PDF queue three times): the copy says so
      // on the sorting page, which would otherwise wait for suggestions that will never come.
      if (job.attempts >= JOB_DEFAULTS.maxAttempts) {
        await deps.db
          .update(unlabeledAnswers)
          .set({ readError: READING_FAILED })
          .where(
            and(
              eq(unlabeledAnswers.id, String(job.payload.unlabeledId ?? '')),
              isNull(unlabeledAnswers.labeledAt),
              isNull(unlabeledAnswers.suggestions),
            ),
          );
      }
      throw err;
    }
  };
}

/** Shown on the sorting page for a copy whose reading failed for good. */
export const READING_FAILED = 'La lecture automatique de cette copie a échoué : triez-la à la main.';

function decodeCopy(deps: DecodeDeps): JobHandler {
  return async (job: Job) => {
    const unlabeledId = String(job.payload.unlabeledId ?? '');
    const [copy] = await deps.db
      .select({
        id: unlabeledAnswers.id,
        chapterId: unlabeledAnswers.chapterId,
        fileId: unlabeledAnswers.fileId,
        labeledAt: unlabeledAnswers.labeledAt,
        uploadedBy: unlabeledAnswers.uploadedBy,
        reservedAt: unlabeledAnswers.reservedAt,
      })
      .from(unlabeledAnswers)
      .where(eq(unlabeledAnswers.id, unlabeledId));
    if (!copy) return { skipped: 'copie introuvable' };
    if (copy.labeledAt) return { skipped: 'copie déjà triée' };
    const bytes = await deps.store.get(copy.fileId);
    if (!bytes) return { skipped: 'fichier introuvable' };

    const started = performance.now();
    let readings: PageReading[];
    try {
      readings = await readScanInWorker(bytes, deps.secret, copy.chapterId);
    } catch (err) {
      // A file the PDF worker refuses (bomb, memory, time, unreadable) will be refused again: the
      // job is done and every page waits for a sorter. A full worker queue (503) is retried later.
      if (err instanceof AppError && err.statusCode !== 503) {
        // Shown on the sorting page: the copy is sorted by hand (decision 58).
        await deps.db
          .update(unlabeledAnswers)
          .set({ readError: err.message })
          .where(and(eq(unlabeledAnswers.id, copy.id), isNull(unlabeledAnswers.labeledAt)));
        return { pages: 0, refused: err.message, labeled: false };
      }
      throw err;
    }
    const ms = performance.now() - started;
    const known = await knownIds(deps.db, copy.chapterId, readings);
    const suggestions = suggestionsOf(readings, known);

    const [saved] = await deps.db
      .update(unlabeledAnswers)
      .set({ suggestions, pageReadings: pageReadingsOf(readings, suggestions) })
      // A retried job, or a sorter who labelled the copy meanwhile, finds it already done.
      .where(and(eq(unlabeledAnswers.id, copy.id), isNull(unlabeledAnswers.labeledAt), isNull(unlabeledAnswers.suggestions)))
      .returning({ id: unlabeledAnswers.id });

    const counts = {
      pages: readings.length,
      ...countByStatus(readings),
      recognised: suggestions.length,
      msPerPage: readings.length ? Math.round(ms / readings.length) : 0,
    };
    const complete =
      readings.length > 0 && suggestions.length === readings.length && suggestions.every((s) => s.user || s.exercises.length === 0);
    if (!saved || !complete || !suggestions.some((s) => s.user) || !deps.autoLabel) return { ...counts, labeled: false };
    // A sorter who opened the copy meanwhile keeps it (the suggestions are on their page).
    const held = copy.reservedAt && Date.now() - copy.reservedAt.getTime() < SORTING_RESERVATION_MINUTES * 60_000;
    if (held || !copy.uploadedBy) return { ...counts, labeled: false };
    try {
      // The message counts the copies made and the blank pages dropped (decision 109).
      const { message } = await deps.autoLabel({ id: copy.id, uploadedBy: copy.uploadedBy }, suggestions);
      return { ...counts, labeled: true, message };
    } catch (err) {
      // A refusal (a pupil's account turned staff, the copy labelled meanwhile) leaves it to a sorter.
      if (err instanceof AppError) return { ...counts, labeled: false, labelError: err.message };
      throw err;
    }
  };
}

interface KnownIds {
  exercises: Set<string>;
  users: Set<string>;
}

/** Codes name exercises and pupils by id: one deleted since the sheets were printed is not suggested. */
async function knownIds(db: Db, chapterId: string, readings: PageReading[]): Promise<KnownIds> {
  const userIds = [...new Set(readings.flatMap((r) => (r.status === 'read' && r.code?.userId ? [r.code.userId] : [])))];
  const exerciseRows = await db
    .select({ id: exercises.id })
    .from(exercises)
    .where(and(eq(exercises.chapterId, chapterId), isNull(exercises.deletedAt)));
  const userRows = userIds.length ? await db.select({ id: users.id }).from(users).where(inArray(users.id, userIds)) : [];
  return { exercises: new Set(exerciseRows.map((r) => r.id)), users: new Set(userRows.map((r) => r.id)) };
}

/** A suggestion as stored: the sorting page's label, and the page number printed on an answer page. */
type StoredSuggestion = PageLabel & { sheetPage?: number };

/**
 * docs/product.md#spec-3 "Sorting entry per page" (pageNum from 1): an answer page gives its pupil (null on a blank
 * sheet, to be chosen by the sorter) and exercise; a cover page is a page with no pupil, dropped
 * when the copy is labelled.
 */
export function suggestionsOf(readings: PageReading[], known: KnownIds): StoredSuggestion[] {
  const out: StoredSuggestion[] = [];
  for (const r of readings) {
    // No ink: suggested blank (dropped when the copy is labelled), like a cover page.
    if (r.status === 'blank') {
      out.push({ pageNum: r.page + 1, user: null, exercises: [], rotation: 0 });
      continue;
    }
    if (r.status !== 'read' || !r.code) continue;
    const { exerciseId, userId } = r.code;
    if (exerciseId && !known.exercises.has(exerciseId)) continue;
    if (userId && !known.users.has(userId)) continue;
    out.push({
      pageNum: r.page + 1,
      user: exerciseId ? userId : null,
      exercises: exerciseId ? [exerciseId] : [],
      rotation: r.rotation as PageLabel['rotation'],
      // The page number printed in the code: labelling puts each pupil's pages in this order (decision 108).
      ...(exerciseId ? { sheetPage: r.code.page } : {}),
    });
  }
  return out;
}

/** Per page, what the sorting page shows: read (a suggestion), blank (suggested blank), unread. */
export function pageReadingsOf(readings: PageReading[], suggestions: PageLabel[]): Array<'read' | 'unread' | 'blank'> {
  const suggested = new Set(suggestions.map((s) => s.pageNum));
  return readings.map((r) => (r.status === 'blank' ? 'blank' : suggested.has(r.page + 1) ? 'read' : 'unread'));
}

function countByStatus(readings: PageReading[]): Record<PageStatus, number> {
  const counts: Record<PageStatus, number> = { read: 0, foreign: 0, forged: 0, unreadable: 0, blank: 0, 'no-image': 0 };
  for (const r of readings) counts[r.status]++;
  return counts;
}
