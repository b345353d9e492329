import { randomUUID } from 'node:crypto';
import type { LabelResult, PageLabel } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { rows } from '../db/query.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { FileStore } from '../files/store.js';
import { checkTargetsUnchanged, findGradedTargets, keepGradedCopy, pagesForTarget, pairKey } from './graded-copies.js';
import { planLabel, type LabelPlan, type PrintedPage } from './plan.js';
import { assertMayLabel } from './policies.js';
import { presentLabelResult } from './presenters.js';
import { isPupilSql } from './pupils.js';
import { RESERVATION } from './select.js';
import { countPages, splitScan } from './split.js';

const uuidArray = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;

const copyRowShape = z.object({
  id: z.string(),
  chapter_id: z.string(),
  file_id: z.string(),
  institution_id: z.string().nullable(),
  original_name: z.string(),
  pages: z.number().nullable(),
  labeled: z.boolean(),
  reserved_by: z.string().nullable(),
  reservation_active: z.boolean(),
  suggestions: z.unknown(),
  page_readings: z.unknown(),
});
type CopyRow = z.output<typeof copyRowShape>;

const copyQuery = (id: string, lock: boolean) => sql`
  SELECT ua.id, ua.chapter_id, ua.file_id, ua.institution_id, f.original_name, f.pages,
    ua.labeled_at IS NOT NULL AS labeled, ua.reserved_by,
    COALESCE(ua.reserved_at >= now() - ${RESERVATION}, FALSE) AS reservation_active, ua.suggestions, ua.page_readings
  FROM unlabeled_answers ua JOIN files f ON f.id = ua.file_id
  WHERE ua.id = ${id}::uuid ${lock ? sql`FOR UPDATE OF ua` : sql``}`;

/**
 * The database checks of a label array: exercises of this chapter in PDF format, pupils that
 * exist. The fault of the lowest page is reported, as the sorter reads the copy.
 */
async function checkTargets(db: Tx, chapterId: string, plan: LabelPlan): Promise<Map<string, string>> {
  const faults: Array<{ page: number; message: string }> = [];
  const exerciseIds = [...plan.firstPageOfExercise.keys()];
  const found = exerciseIds.length
    ? await rows(
        db,
        z.object({ id: z.string(), chapter_id: z.string(), answer_format: z.string(), title: z.string() }),
        sql`SELECT id, chapter_id, answer_format, title FROM exercises WHERE id = ANY(${uuidArray(exerciseIds)}) AND deleted_at IS NULL`,
      )
    : [];
  const exercises = new Map(found.map((e) => [e.id, e]));
  for (const [id, page] of plan.firstPageOfExercise) {
    const e = exercises.get(id);
    if (!e || e.chapter_id !== chapterId) faults.push({ page, message: `Page ${page} : cet exercice n’appartient pas à ce chapitre.` });
    else if (e.answer_format !== 'pdf')
      faults.push({ page, message: `Page ${page} : l’exercice « ${e.title} » n’attend pas de copie PDF.` });
  }
  const userIds = [...plan.firstPageOfUser.keys()];
  const people = userIds.length
    ? await rows(
        db,
        z.object({ id: z.string(), pupil: z.boolean(), last_name: z.string().nullable() }),
        sql`SELECT u.id, ${isPupilSql(sql`u`)} AS pupil, u.last_name FROM users u WHERE u.id = ANY(${uuidArray(userIds)})`,
      )
    : [];
  const users = new Map(people.map((u) => [u.id, u]));
  for (const [id, page] of plan.firstPageOfUser) {
    const u = users.get(id);
    if (!u) faults.push({ page, message: `Page ${page} : élève introuvable.` });
    else if (!u.pupil) faults.push({ page, message: `Page ${page} : ce compte n’est pas celui d’un élève.` });
  }
  if (faults.length) throw badRequest(faults.sort((a, b) => a.page - b.page)[0].message);
  return new Map(found.map((e) => [e.id, e.title]));
}

const ANONYMITY_CHANGED_MESSAGE = 'La correction anonyme de ce chapitre vient de changer : validez le tri à nouveau.';

/** The chapter's anonymous correction; `lock`: under a share lock of its row, until the transaction ends. */
async function isAnonymous(db: Tx, chapterId: string, lock: boolean): Promise<boolean> {
  const [row] = await rows(
    db,
    z.object({ anonymous_grading: z.boolean() }),
    sql`SELECT anonymous_grading FROM chapters WHERE id = ${chapterId}::uuid ${lock ? sql`FOR SHARE` : sql``}`,
  );
  return row?.anonymous_grading ?? false;
}

// eslint-disable-next-line no-control-regex
const safeName = (name: string) => name.replace(/[\\/\u0000-\u001f\u007f]/g, ' ').slice(0, 195);

const pageList = (pages: number[]) => {
  const [first, last] = [Math.min(...pages), Math.max(...pages)];
  return first === last ? `p${first}` : `p${first}-${last}`;
};

/**
 * Pages the reader found blank (a duplex scan's backs) and the labels leave out: they are dropped
 * from the copies (decision 109), and the message counts them.
 */
function droppedBlanks(pageReadings: unknown, entries: PageLabel[]): number {
  if (!Array.isArray(pageReadings)) return 0;
  const given = new Set(entries.filter((e) => e.user !== null).map((e) => e.pageNum));
  return pageReadings.filter((r, i) => r === 'blank' && !given.has(i + 1)).length;
}

/**
 * The page numbers the decode job read on the copy's pages (stored with its suggestions,
 * `sheetPage`), by scanned page number: each part is put in the printed order (decision 108).
 * Anything malformed is ignored: the page keeps its place in the scan.
 */
function printedPages(suggestions: unknown): Map<number, PrintedPage> {
  const out = new Map<number, PrintedPage>();
  if (!Array.isArray(suggestions)) return out;
  for (const s of suggestions as Array<Record<string, unknown> | null>) {
    if (!s || typeof s.pageNum !== 'number' || typeof s.sheetPage !== 'number' || !Array.isArray(s.exercises) || s.exercises.length !== 1)
      continue;
    const [exercise] = s.exercises as unknown[];
    if (typeof exercise !== 'string') continue;
    out.set(s.pageNum, { user: typeof s.user === 'string' ? s.user : null, exercise, sheetPage: s.sheetPage });
  }
  return out;
}

/** One (pupil, exercise) part of the scan, ready to be stored. */
type MadePart = LabelPlan['parts'][number] & {
  fileId: string;
  bytes: Awaited<ReturnType<typeof splitScan>>[number]['bytes'];
  pageCount: number;
  name: string;
};
type GradedTargets = Awaited<ReturnType<typeof findGradedTargets>>;
type Pair = { user: string; exercise: string };

/**
 * The parts of the scan as PDFs, before anything is written: checked targets, names masked under anonymous
 * correction (decision 130), pages for a graded copy joined to it (decision 139).
 */
async function prepareParts(deps: { db: Db; store: FileStore }, copy: CopyRow, entries: PageLabel[]) {
  const { db, store } = deps;
  const scan = await store.get(copy.file_id);
  if (!scan) throw notFound('Le fichier de cette copie est introuvable.');
  const pageCount = copy.pages ?? (await countPages(scan));
  const plan = planLabel(entries, pageCount, printedPages(copy.suggestions));
  const titles = await checkTargets(db, copy.chapter_id, plan);

  // Decision 130: a chapter under anonymous correction gets copies whose name band is painted white.
  const maskNames = await isAnonymous(db, copy.chapter_id, false);
  const parts = await splitScan(scan, plan.parts, { maskNames });
  const base = copy.original_name.replace(/\.pdf$/i, '').slice(0, 120) || 'copie';
  const made: MadePart[] = plan.parts.map((part, i) => ({
    ...part,
    fileId: randomUUID(),
    bytes: parts[i].bytes,
    pageCount: parts[i].pages,
    name: safeName(`${base}-${pageList(part.pages.map((p) => p.pageNum))}-${titles.get(part.exercise) ?? ''}`) + '.pdf',
  }));

  // Decision 139: pages for a graded copy go into that copy, which keeps its grade.
  const pairs: Pair[] = plan.parts.map((p) => ({ user: p.user, exercise: p.exercise }));
  const graded = await findGradedTargets(db, copy.file_id, pairs);
  for (const m of made) {
    const target = graded.get(pairKey(m.user, m.exercise));
    const joined = target ? await pagesForTarget(store, target, m.bytes) : null;
    if (joined) Object.assign(m, { bytes: joined.bytes, pageCount: joined.pages });
  }
  const fresh = made.filter((m) => !graded.has(pairKey(m.user, m.exercise)));
  return { made, fresh, pairs, graded, maskNames };
}

type InsertedAnswer = { id: string; user_id: string; exercise_id: string; file_id: string };
const insertedAnswerShape = z.object({ id: z.string(), user_id: z.string(), exercise_id: z.string(), file_id: z.string() });

/** The parts' files rows; for a part joined to a graded copy, that copy takes its file and keeps its grade. */
async function recordFiles(
  tx: Tx,
  auth: AuthContext,
  input: { copyId: string; institutionId: string | null; made: MadePart[]; graded: GradedTargets },
) {
  const { made, graded } = input;
  const inserted: InsertedAnswer[] = [];
  if (made.length === 0) return inserted;
  // Files belong to the pupil (ownerId), so they see their copy once grades are published;
  // institutionId is the copy's school, whose staff keep seeing what they uploaded.
  await tx.execute(sql`
          INSERT INTO files (id, owner_id, institution_id, original_name, size, pages)
          VALUES ${sql.join(
            made.map(
              (m) =>
                sql`(${m.fileId}::uuid, ${m.user}::uuid, ${input.institutionId}::uuid, ${m.name}::text, ${m.bytes.length}::int, ${m.pageCount}::int)`,
            ),
            sql`, `,
          )}`);
  for (const m of made) {
    const target = graded.get(pairKey(m.user, m.exercise));
    if (!target) continue;
    await keepGradedCopy(tx, auth, target, {
      copyId: input.copyId,
      fileId: m.fileId,
      pages: m.pages.map((p) => p.pageNum),
      seq: Date.now(),
    });
    inserted.push({ id: target.answerId, user_id: m.user, exercise_id: m.exercise, file_id: m.fileId });
  }
  return inserted;
}

/** The new parts as answers: seq now, or above the pupil's latest for that exercise, so the sorted copy is the current answer. */
async function insertFreshAnswers(tx: Tx, fresh: MadePart[]): Promise<InsertedAnswer[]> {
  if (fresh.length === 0) return [];
  const now = Date.now();
  return rows(
    tx,
    insertedAnswerShape,
    sql`
          INSERT INTO answers (user_id, exercise_id, answer, file_id, seq)
          SELECT v.u, v.e, v.a, v.f,
            GREATEST(v.s, COALESCE((SELECT max(a.seq) + 1 FROM answers a WHERE a.user_id = v.u AND a.exercise_id = v.e), 0))
          FROM (VALUES ${sql.join(
            fresh.map(
              (m) => sql`(${m.user}::uuid, ${m.exercise}::uuid, ${`pdfs/${m.fileId}.pdf`}::text, ${m.fileId}::uuid, ${now}::bigint)`,
            ),
            sql`, `,
          )}) AS v(u, e, a, f, s)
          RETURNING id, user_id, exercise_id, file_id`,
  );
}

/** The records of a labelling, in one transaction under the copy's row lock; returns the answers made. */
async function recordLabel(
  db: Db,
  auth: AuthContext,
  copyId: string,
  copy: CopyRow,
  prepared: Awaited<ReturnType<typeof prepareParts>> & { blanks: number },
): Promise<InsertedAnswer[]> {
  const { made, fresh, pairs, graded, maskNames, blanks } = prepared;
  return db.transaction(async (tx) => {
    // Again under the row lock: a second sorter or a double click finds the copy labelled.
    const [locked] = await rows(tx, copyRowShape, copyQuery(copyId, true));
    assertMayLabel(auth, locked);
    // The option read again under a share lock of the chapter: switching it on waits for this labelling and
    // then sees its copies (chapters/service.ts), or it came first and these copies are made again.
    if ((await isAnonymous(tx, copy.chapter_id, true)) !== maskNames) throw conflict(ANONYMITY_CHANGED_MESSAGE);
    await checkTargetsUnchanged(tx, copy.file_id, pairs, graded);
    const inserted = await recordFiles(tx, auth, { copyId, institutionId: copy.institution_id, made, graded });
    inserted.push(...(await insertFreshAnswers(tx, fresh)));
    await tx.execute(
      sql`UPDATE unlabeled_answers SET labeled_at = now(), labeled_by = ${auth.userId}::uuid, dropped_blanks = ${blanks}::int WHERE id = ${copyId}::uuid`,
    );
    return inserted;
  });
}

/**
 * POST /answer/label/{answerId} (docs/product.md#design-3 Sorting): splits the scan into one PDF per (pupil,
 * exercise) and appends them as answers. The PDFs are written first; the files rows, the answers
 * and the "labelled" mark then go in one transaction, and on any failure the written PDFs are
 * removed: a failure leaves no partial answers. The original scan is kept.
 */
export async function labelCopy(
  deps: { db: Db; store: FileStore },
  auth: AuthContext,
  copyId: string,
  entries: PageLabel[],
): Promise<LabelResult> {
  const { db, store } = deps;
  const [copy] = await rows(db, copyRowShape, copyQuery(copyId, false));
  assertMayLabel(auth, copy);
  const prepared = await prepareParts(deps, copy, entries);
  const blanks = droppedBlanks(copy.page_readings, entries);
  const written: string[] = [];
  try {
    for (const m of prepared.made) {
      written.push(m.fileId);
      await store.put(m.fileId, m.bytes);
    }
    const created = await recordLabel(db, auth, copyId, copy, { ...prepared, blanks });
    return presentLabelResult({ made: prepared.made, created, blanks, keptGrades: prepared.graded.size });
  } catch (error) {
    await Promise.allSettled(written.map((id) => store.delete(id)));
    throw error;
  }
}
