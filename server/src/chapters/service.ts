import {
  BIN_DAYS,
  type BinEntry,
  type ChapterCreate,
  type ChapterDetail,
  type ChapterPatch,
  type ChapterSummary,
  type GradingOptions,
} from '@olympe/contract';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { queueResultsPublished } from '../mail/notifications.js';
import type { Db, Tx } from '../db/client.js';
import { audit } from '../db/audit.js';
import { column, rows } from '../db/query.js';
import { accessGroups, chapters, users } from '../db/schema.js';
import { conflict, notFound } from '../errors.js';
import { isChapterPublished } from './publication.js';
import { assertMayPublishNow } from './publication-guard.js';
import { matchAccessRule, resolveAccess, type WindowStatus } from './access.js';
import { assertMayOpenChapter, canReadCentreInstructions, canReadEveryChapter, canSeePaperChapter } from './policies.js';
import { presentAccessGroup, presentSummary } from './presenters.js';
import { qualificationsFor } from '../selections/qualification.js';

type ChapterRow = typeof chapters.$inferSelect;
type AccessRow = typeof accessGroups.$inferSelect;

/** The caller as the rules see them; their qualifications (decision 157) only when a rule requires a selection. */
async function candidateOf(db: Tx, userId: string, rules: readonly AccessRow[]) {
  const [me] = await db
    .select({ gender: users.gender, grade: users.grade, birthDate: users.birthDate })
    .from(users)
    .where(eq(users.id, userId));
  if (!me) return null;
  const qualifiedIn = (await qualificationsFor(db, rules, [userId]))(userId);
  return qualifiedIn ? { ...me, qualifiedIn } : me;
}

/**
 * GET /chapter (docs/product.md#design-3): admins and members see every chapter; teachers the paper ones;
 * everyone else the chapters where one of the access groups admits them.
 */
export async function listVisibleChapters(db: Db, auth: AuthContext): Promise<ChapterSummary[]> {
  const all = await db.select().from(chapters).where(isNull(chapters.deletedAt)).orderBy(asc(chapters.createdAt), asc(chapters.title));
  if (canReadEveryChapter(auth)) return all.map(presentSummary);

  const rules = await db.select().from(accessGroups).orderBy(asc(accessGroups.position));
  const me = await candidateOf(db, auth.userId, rules);
  const rulesOf = (chapterId: string) => rules.filter((r) => r.chapterId === chapterId);
  return all.filter((c) => canSeePaperChapter(auth, c) || (me && matchAccessRule(me, rulesOf(c.id)) !== null)).map(presentSummary);
}

/** A live chapter: one in the bin is not found (decision 73: hidden everywhere until restored). */
export async function findChapter(db: Tx, id: string): Promise<ChapterRow> {
  const [row] = await db
    .select()
    .from(chapters)
    .where(and(eq(chapters.id, id), isNull(chapters.deletedAt)));
  if (!row) throw notFound('Chapitre introuvable.');
  return row;
}

async function rulesOfChapter(db: Tx, chapterId: string): Promise<AccessRow[]> {
  return db.select().from(accessGroups).where(eq(accessGroups.chapterId, chapterId)).orderBy(asc(accessGroups.position));
}

export interface ChapterAccess {
  chapter: ChapterRow;
  staff: boolean;
  /** The access group that decides for a non-staff caller, and where now falls in its window. */
  rule: AccessRow | null;
  status: WindowStatus | null;
}

/**
 * What a caller may do with one chapter: staff always; others only through an access group that
 * admits them (teachers also see paper chapters, without a rule). Throws 404 / 403 otherwise.
 */
export async function chapterAccessFor(db: Tx, auth: AuthContext, chapterId: string, now: Date): Promise<ChapterAccess> {
  const chapter = await findChapter(db, chapterId);
  if (canReadEveryChapter(auth)) return { chapter, staff: true, rule: null, status: null };
  const rules = await rulesOfChapter(db, chapterId);
  const me = await candidateOf(db, auth.userId, rules);
  const access = me ? resolveAccess(me, rules, now) : null;
  assertMayOpenChapter(auth, chapter, access);
  return { chapter, staff: false, rule: access?.rule ?? null, status: access?.status ?? null };
}

/**
 * GET /chapter/{id}. Admins and members: everything, access groups included. Teachers: the
 * pupils' and the centres' instructions. Pupils: the pupils' instructions only.
 */
export async function getChapterDetail(db: Db, auth: AuthContext, id: string, now = new Date()): Promise<ChapterDetail> {
  const { chapter, staff } = await chapterAccessFor(db, auth, id, now);
  const base: ChapterDetail = {
    _id: chapter.id,
    title: chapter.title,
    offline: chapter.offline,
    analysis: isChapterPublished(chapter, now),
    headerStudents: chapter.headerStudents,
  };
  if (staff) {
    return {
      ...base,
      headerCenters: chapter.headerCenters,
      groups: (await rulesOfChapter(db, id)).map(presentAccessGroup),
      anonymousGrading: chapter.anonymousGrading,
      doubleGrading: chapter.doubleGrading,
      gradingTolerance: chapter.gradingTolerance,
      copiesReturned: chapter.copiesReturned,
      correctorNamed: chapter.correctorNamed,
    };
  }
  if (canReadCentreInstructions(auth)) return { ...base, headerCenters: chapter.headerCenters };
  return base;
}

const GRADING_OPTIONS = ['anonymousGrading', 'doubleGrading', 'gradingTolerance'] as const satisfies ReadonlyArray<keyof GradingOptions>;
const gradingOptionsOf = (c: Pick<ChapterRow, (typeof GRADING_OPTIONS)[number]>): GradingOptions => ({
  anonymousGrading: c.anonymousGrading,
  doubleGrading: c.doubleGrading,
  gradingTolerance: c.gradingTolerance,
});

/**
 * Grading options decide who sees names and how a grade is settled (decision 77): an admin's change of them is
 * an audit entry `chapter.grading-options` with the options before and after (none before for a new chapter).
 */
async function auditGradingOptions(tx: Tx, auth: AuthContext, chapterId: string, before: GradingOptions | null, after: GradingOptions) {
  if (before && GRADING_OPTIONS.every((k) => before[k] === after[k])) return;
  await audit(tx, auth, 'chapter.grading-options', chapterId, { before, after });
}

const ANONYMOUS_TOO_LATE_MESSAGE =
  'La correction anonyme ne peut plus être activée : des copies scannées de ce chapitre sont déjà triées et montrent les noms. Remettez-les au triage, puis activez-la avant de les trier à nouveau.';

/**
 * Decision 130: copies are masked when they are sorted, so anonymous correction is switched on before sorting,
 * or once every sorted copy was sent back to sorting (no answer of the chapter is a PDF any more).
 */
async function hasSortedScanCopies(tx: Tx, chapterId: string): Promise<boolean> {
  const [row] = await rows(
    tx,
    z.object({ sorted: z.boolean() }),
    sql`SELECT EXISTS (SELECT 1 FROM unlabeled_answers WHERE chapter_id = ${chapterId}::uuid AND labeled_at IS NOT NULL)
        AND EXISTS (SELECT 1 FROM answers a JOIN exercises e ON e.id = a.exercise_id
                    WHERE e.chapter_id = ${chapterId}::uuid AND a.file_id IS NOT NULL AND a.withdrawn_at IS NULL) AS sorted`,
  );
  return row.sorted;
}

/** Decision 157: a group's required selection must exist (the foreign key would refuse it without a French word). */
async function assertSelectionsExist(tx: Tx, groups: ReadonlyArray<{ requiredSelectionId?: string | null }>) {
  const wanted = [...new Set(groups.map((g) => g.requiredSelectionId).filter((id): id is string => !!id))];
  if (wanted.length === 0) return;
  const found = await rows(
    tx,
    z.object({ id: z.string() }),
    sql`SELECT id FROM selections WHERE id = ANY(${`{${wanted.join(',')}}`}::uuid[])`,
  );
  if (found.length < wanted.length) throw notFound('Sélection introuvable : choisissez une sélection existante pour le groupe d’accès.');
}

/** POST /chapter, with its grading options if given (as PATCH applies them). */
export async function createChapter(db: Db, auth: AuthContext, input: ChapterCreate): Promise<ChapterSummary> {
  return db.transaction(async (tx) => {
    const { title, analysis, offline, ...options } = input;
    const [row] = await tx
      .insert(chapters)
      .values({ title, analysis, offline, ...options })
      .returning();
    if (Object.keys(options).length > 0) await auditGradingOptions(tx, auth, row.id, null, gradingOptionsOf(row));
    return presentSummary(row);
  });
}

/** PATCH /chapter/{id}: the fields present; `groups` replaces the whole access table, in order. */
export async function updateChapter(db: Db, auth: AuthContext, id: string, patch: ChapterPatch): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findChapter(tx, id);
    const { groups, confirm, ...fields } = patch;
    // Decision 69: unpublishing also drops a scheduled publication, or the schedule would publish again.
    const changes = fields.analysis === false ? { ...fields, publishAt: null } : fields;
    if (Object.keys(changes).length > 0) await tx.update(chapters).set(changes).where(eq(chapters.id, id));
    // After the update, which holds the row: a labelling under way (its share lock) has committed its copies.
    if (fields.anonymousGrading === true && !before.anonymousGrading && (await hasSortedScanCopies(tx, id)))
      throw conflict(ANONYMOUS_TOO_LATE_MESSAGE);
    await auditGradingOptions(tx, auth, id, gradingOptionsOf(before), gradingOptionsOf({ ...before, ...fields }));
    if (groups) {
      await assertSelectionsExist(tx, groups);
      await tx.delete(accessGroups).where(eq(accessGroups.chapterId, id));
      if (groups.length > 0) {
        await tx.insert(accessGroups).values(
          groups.map((g, position) => ({
            chapterId: id,
            position,
            name: g.name || 'all',
            authorizedGenders: [...g.authorizedGenders],
            authorizedGrades: [...g.authorizedGrades],
            birthDateMin: g.birthDateMin,
            birthDateMax: g.birthDateMax,
            timeDuration: g.timeDuration,
            accessStart: g.accessStart ? new Date(g.accessStart) : null,
            accessEnd: g.accessEnd ? new Date(g.accessEnd) : null,
            requiredSelectionId: g.requiredSelectionId ?? null,
          })),
        );
      }
    }
    if (fields.analysis === true && !before.analysis) {
      // Decision 152: the flag publishes now, so it waits for the pupils still answering (with the access groups
      // just saved, in this transaction) unless the admin confirmed their number.
      await assertMayPublishNow(tx, id, { ...before, offline: fields.offline ?? before.offline }, confirm);
      // Publishing the results (decision 60): who took part hears of it by mail, once.
      await queueResultsPublished(tx, id);
    }
  });
}

/**
 * DELETE /chapter/{id} (decision 73): the chapter goes to the bin with everything in it; restoring it
 * within 30 days brings back its exercises, answers and grades untouched. Audited.
 */
export async function deleteChapter(db: Db, auth: AuthContext, id: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(chapters)
      .set({ deletedAt: now })
      .where(and(eq(chapters.id, id), isNull(chapters.deletedAt)))
      .returning({ id: chapters.id, title: chapters.title });
    if (!row) throw notFound('Chapitre introuvable.');
    await audit(tx, auth, 'chapter.delete', id, { title: row.title });
  });
}

/** POST /chapter/{id}/restore (decision 73): out of the bin, as it was. Audited. */
export async function restoreChapter(db: Db, auth: AuthContext, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(chapters)
      .set({ deletedAt: null })
      .where(and(eq(chapters.id, id), isNotNull(chapters.deletedAt)))
      .returning({ id: chapters.id, title: chapters.title });
    if (!row) throw notFound('Ce chapitre n’est pas dans la corbeille.');
    await audit(tx, auth, 'chapter.restore', id, { title: row.title });
  });
}

const DAY_MS = 86_400_000;

/**
 * GET /bin (decision 73, « Corbeille »): deleted chapters and exercises, newest first, with the answers
 * they hold (what a restore brings back) and the date the purge may remove them.
 */
export async function listBin(db: Db): Promise<BinEntry[]> {
  const found = await rows(
    db,
    z.object({
      kind: z.enum(['chapter', 'exercise']),
      id: z.string(),
      title: z.string(),
      chapter_title: z.string(),
      chapter_deleted: z.boolean(),
      deleted_at: column.date,
      answers: column.number,
    }),
    sql`
    SELECT 'chapter' AS kind, c.id, c.title, c.title AS chapter_title, true AS chapter_deleted, c.deleted_at,
           (SELECT count(*)::int FROM answers a JOIN exercises e ON e.id = a.exercise_id WHERE e.chapter_id = c.id) AS answers
    FROM chapters c WHERE c.deleted_at IS NOT NULL
    UNION ALL
    SELECT 'exercise', e.id, e.title, c.title, c.deleted_at IS NOT NULL, e.deleted_at,
           (SELECT count(*)::int FROM answers a WHERE a.exercise_id = e.id)
    FROM exercises e JOIN chapters c ON c.id = e.chapter_id WHERE e.deleted_at IS NOT NULL
    ORDER BY deleted_at DESC, id`,
  );
  return found.map((r) => {
    const deletedAt = new Date(r.deleted_at);
    return {
      kind: r.kind,
      _id: r.id,
      title: r.title,
      chapterTitle: r.chapter_title,
      chapterDeleted: !!r.chapter_deleted,
      deletedAt: deletedAt.toISOString(),
      purgeAfter: new Date(deletedAt.getTime() + BIN_DAYS * DAY_MS).toISOString(),
      answers: Number(r.answers),
    };
  });
}
