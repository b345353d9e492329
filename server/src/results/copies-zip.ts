import { sql } from 'drizzle-orm';
import { Zip } from 'fflate';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { findChapter } from '../chapters/service.js';
import type { Db } from '../db/client.js';
import { one, rows } from '../db/query.js';
import { chapters } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { FileStore } from '../files/store.js';
import { renderCorrectedCopiesInWorker } from '../pdf/pdf-pool.js';
import { addStored } from './certificates.js';
import { correctedCopyData, pupilName, safeName } from './copies-pdf.js';
import type { CorrectedCopyData } from './corrected-copy.js';
import { assertCopiesReturned, resultsInstitutionOf } from './policies.js';
import { copiesOf, copyExercisesOf, type CopyExercise } from './returned-copies.js';

/**
 * GET /results/{chapterId}/copies.zip (docs/product.md#returned-copies, decision 162): a school's pupils' corrected
 * copies, one folder per pupil « NOM Prénom », drawn in the PDF worker pool by small batches (two in flight, so the
 * pool's other users and /api/health keep their turn) and streamed as they come.
 */

type ChapterRow = typeof chapters.$inferSelect;

/** Copies per worker task: a batch holds its stored scans, a few megabytes each. */
const BATCH = 8;
/** Pupils read from the database at a time. */
const PUPILS_AT_ONCE = 50;

const pupilShape = z.object({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() });
type Pupil = z.output<typeof pupilShape>;

export interface Entry {
  name: string;
  data: CorrectedCopyData;
}

/** « GERMAIN Sophie », a second one « GERMAIN Sophie (2) ». */
function folderNamer() {
  const used = new Map<string, number>();
  return (p: Pupil) => {
    const base = safeName(`${(p.last_name ?? '').toLocaleUpperCase('fr')} ${p.first_name ?? ''}`) || 'Élève';
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  };
}

/** The copies to draw, pupil by pupil, as batches of BATCH (the stored scans read as they are needed). */
async function* batchesOf(
  db: Db,
  store: FileStore,
  chapter: ChapterRow,
  exercises: CopyExercise[],
  pupils: Pupil[],
): AsyncGenerator<Entry[]> {
  const folderOf = folderNamer();
  let batch: Entry[] = [];
  for (let i = 0; i < pupils.length; i += PUPILS_AT_ONCE) {
    const group = pupils.slice(i, i + PUPILS_AT_ONCE);
    const copies = await copiesOf(
      db,
      chapter,
      exercises,
      group.map((p) => p.id),
    );
    for (const pupil of group) {
      const folder = folderOf(pupil);
      const rowsOfPupil = (copies.get(pupil.id) ?? []).filter((c) => c.answer);
      for (const [index, row] of rowsOfPupil.entries()) {
        const name = `${folder}/${String(index + 1).padStart(2, '0')} ${safeName(row.exercise.title) || 'Exercice'}.pdf`;
        batch.push({ name, data: await correctedCopyData(store, chapter, pupilName(pupil), row) });
        if (batch.length === BATCH) {
          yield batch;
          batch = [];
        }
      }
    }
  }
  if (batch.length > 0) yield batch;
}

/** The archive's chunks: each batch drawn in a worker (the next one already asked for) and written out at once. */
export async function* zipCopies(batches: AsyncIterable<Entry[]>): AsyncGenerator<Buffer> {
  let written: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else written.push(chunk);
  });
  const take = () => {
    if (failure) throw failure;
    const chunk = Buffer.concat(written);
    written = [];
    return chunk;
  };
  const render = (entries: Entry[]) => {
    const p = renderCorrectedCopiesInWorker(entries.map((e) => e.data)).then((r) => ({ entries, rendered: r }));
    p.catch(() => undefined); // awaited below
    return p;
  };
  const mtime = new Date();
  const source = batches[Symbol.asyncIterator]();
  let next = await source.next();
  let pending = next.done ? null : render(next.value);
  while (pending) {
    next = await source.next();
    const following = next.done ? null : render(next.value);
    const { entries, rendered } = await pending;
    rendered.forEach((r, i) => addStored(zip, entries[i].name, r.bytes, r.crc, mtime));
    yield take();
    pending = following;
  }
  zip.end();
  yield take();
}

/**
 * School staff download their own school's (institutionInScope), admins name one; once published and returned
 * (admins at any time). The chapter and the school are checked before any byte is sent.
 */
export async function institutionCopiesZip(
  db: Db,
  store: FileStore,
  auth: AuthContext,
  chapterId: string,
  requested?: string,
  now = new Date(),
) {
  const institutionId = resultsInstitutionOf(auth, requested);
  const chapter = await findChapter(db, chapterId);
  assertCopiesReturned(auth, chapter, now);
  const institution = await one(db, z.object({ name: z.string() }), sql`SELECT name FROM institutions WHERE id = ${institutionId}::uuid`);
  if (!institution) throw notFound('Établissement introuvable.');
  const exercises = await copyExercisesOf(db, chapterId);
  const pupils =
    exercises.length === 0
      ? []
      : await rows(
          db,
          pupilShape,
          sql`SELECT u.id, u.first_name, u.last_name FROM users u
              WHERE u.institution_id = ${institutionId}::uuid
                AND EXISTS (SELECT 1 FROM answers a WHERE a.user_id = u.id AND a.withdrawn_at IS NULL
                              AND a.exercise_id = ANY(${`{${exercises.map((e) => e.id).join(',')}}`}::uuid[]))
              ORDER BY u.last_name, u.first_name, u.id`,
        );
  return { title: chapter.title, institution: institution.name, chunks: zipCopies(batchesOf(db, store, chapter, exercises, pupils)) };
}
