import { getChapterSessionState, loadChapterContext } from '../sessions/service.js';
import { randomUUID } from 'node:crypto';
import {
  formatPoints,
  MAX_POINTS_DEFAULT,
  parseDecimal,
  sumPoints,
  type SchemeItem,
  type SchemeItemInput,
  type ChapterPage,
  type ExerciseCreate,
  type ExercisePatch,
  type ExerciseRaw,
  type ExerciseView,
  type SchemeChangePreview,
  type StatementVersion,
} from '@olympe/contract';
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { applySchemeChange, previewSchemeChange } from '../grading/scheme-change.js';
import { drawnStatements } from './statement-html.js';
import { chapterAccessFor, findChapter, type ChapterAccess } from '../chapters/service.js';
import { windowStatus } from '../chapters/access.js';
import { isChapterPublished } from '../chapters/publication.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { chapters, exercises, statementVersions } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { canReadStatementsAsStaff } from './policies.js';
import { presentForUser, presentRaw, type ExerciseRow, type ExerciseWithVersions } from './presenters.js';

/** Exercises of a chapter in order, each with its versions in order (two queries, any size); binned ones left out. */
export async function loadChapterExercises(db: Tx, chapterId: string): Promise<ExerciseWithVersions[]> {
  const rows = await db
    .select()
    .from(exercises)
    .where(and(eq(exercises.chapterId, chapterId), isNull(exercises.deletedAt)))
    .orderBy(asc(exercises.position), asc(exercises.createdAt));
  return attachVersions(db, rows);
}

async function attachVersions(db: Tx, rows: ExerciseRow[]): Promise<ExerciseWithVersions[]> {
  if (rows.length === 0) return [];
  const versions = await db
    .select()
    .from(statementVersions)
    .where(
      inArray(
        statementVersions.exerciseId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(statementVersions.position));
  return rows.map((r) => ({ ...r, versions: versions.filter((v) => v.exerciseId === r.id) }));
}

/** A live exercise of a live chapter: one in the bin, or in a binned chapter, is not found (decision 73). */
async function findExercise(db: Tx, id: string): Promise<ExerciseWithVersions> {
  const [row] = await db
    .select({ exercise: exercises })
    .from(exercises)
    .innerJoin(chapters, eq(chapters.id, exercises.chapterId))
    .where(and(eq(exercises.id, id), isNull(exercises.deletedAt), isNull(chapters.deletedAt)));
  if (!row) throw notFound('Exercice introuvable.');
  return (await attachVersions(db, [row.exercise]))[0];
}

/**
 * Whether a non-staff caller may read the statements now: the window must have opened, and a paper
 * chapter's subject stays off-line until its grades are published. Timed sessions come on top of this.
 */
function statementsReadable(
  access: Pick<ChapterAccess, 'staff' | 'status'> & {
    rule: object | null;
    chapter: Pick<ChapterAccess['chapter'], 'offline' | 'analysis' | 'publishAt'>;
  },
  now: Date,
): boolean {
  if (access.staff) return true;
  if (!access.rule || access.status === 'before') return false;
  return !access.chapter.offline || isChapterPublished(access.chapter, now);
}

/** GET /exos/raw/{chapterId}: every exercise with every version and expected answer (admin). */
export async function listRawExercises(db: Db, chapterId: string): Promise<ExerciseRaw[]> {
  await findChapter(db, chapterId);
  return (await loadChapterExercises(db, chapterId)).map(presentRaw);
}

/** Expected answers are kept for numeric exercises only and must read as numbers. */
function normaliseVersions(format: string, versions: readonly StatementVersion[]) {
  return versions.map((v, i) => {
    if (format !== 'numeric') return { content: v.content, answer: null };
    if (v.answer !== null && parseDecimal(v.answer) === null) {
      throw badRequest(`La réponse attendue de la version ${i + 1} n’est pas un nombre.`);
    }
    return { content: v.content, answer: v.answer };
  });
}

async function writeVersions(tx: Tx, exerciseId: string, versions: { content: string; answer: string | null }[]) {
  await tx.delete(statementVersions).where(eq(statementVersions.exerciseId, exerciseId));
  if (versions.length > 0) {
    await tx.insert(statementVersions).values(versions.map((v, position) => ({ exerciseId, position, ...v })));
  }
}

/**
 * Marking-scheme items as stored: each keeps its id (grades refer to it) or gets a new one. Their sum
 * may not exceed the exercise's maximum (decision 61: a scheme describes how the points are earned).
 */
function normaliseScheme(items: readonly SchemeItemInput[], maxPoints: number): SchemeItem[] {
  const stored = items.map((i) => ({ id: i.id ?? randomUUID(), text: i.text, points: i.points }));
  const total = sumPoints(stored.map((i) => i.points));
  if (total > maxPoints + 1e-9) {
    throw badRequest(
      `Les éléments du barème totalisent ${formatPoints(total)} points : plus que les ${formatPoints(maxPoints)} points de l’exercice.`,
    );
  }
  if (new Set(stored.map((i) => i.id)).size !== stored.length) throw badRequest('Deux éléments du barème ont le même identifiant.');
  return stored;
}

/** POST /exos: appended at the end of the chapter. */
export async function createExercise(db: Db, input: ExerciseCreate): Promise<ExerciseRaw> {
  return db.transaction(async (tx) => {
    await findChapter(tx, input.chapter).catch(() => {
      throw badRequest('Chapitre introuvable.');
    });
    const format = input.answerFormat;
    const versions = normaliseVersions(format, input.statementVersions);
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${exercises.position}), -1) + 1` })
      .from(exercises)
      .where(eq(exercises.chapterId, input.chapter));
    const maxPoints = input.maxPoints ?? MAX_POINTS_DEFAULT;
    const schemeItems = normaliseScheme(input.schemeItems ?? [], maxPoints);
    const [row] = await tx
      .insert(exercises)
      .values({ chapterId: input.chapter, position: Number(next), title: input.title, answerFormat: format, maxPoints, schemeItems })
      .returning();
    await writeVersions(tx, row.id, versions);
    return presentRaw(await findExercise(tx, row.id));
  });
}

/**
 * PATCH /exos/{id}: the fields present; versions replace the old ones (pupils keep their version index). New scheme
 * points recompute the grades that ticked the items, once confirmed (decision 161, grading/scheme-change.ts).
 */
export async function updateExercise(db: Db, auth: AuthContext, id: string, patch: ExercisePatch): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await findExercise(tx, id);
    const format = patch.answerFormat ?? current.answerFormat;
    const versions = patch.statementVersions ?? current.versions;
    // Re-checked against the resulting format: a format change alone may invalidate stored answers.
    const normalised = normaliseVersions(
      format,
      versions.map((v) => ({ content: v.content, answer: v.answer })),
    );
    const fields: Partial<typeof exercises.$inferInsert> = {};
    if (patch.title !== undefined) fields.title = patch.title;
    if (patch.answerFormat !== undefined) fields.answerFormat = patch.answerFormat;
    if (patch.maxPoints !== undefined || patch.schemeItems !== undefined) {
      // The scheme is re-checked against the resulting maximum: lowering it below the items' sum is refused.
      fields.maxPoints = patch.maxPoints ?? current.maxPoints;
      fields.schemeItems = normaliseScheme(patch.schemeItems ?? current.schemeItems, fields.maxPoints);
      await applySchemeChange(tx, auth, id, fields.schemeItems, patch.confirmRecompute);
    }
    if (Object.keys(fields).length > 0) await tx.update(exercises).set(fields).where(eq(exercises.id, id));
    if (patch.statementVersions !== undefined || patch.answerFormat !== undefined) await writeVersions(tx, id, normalised);
  });
}

/** POST /exos/{id}/scheme/preview (admins, decision 161): the scheme checked as PATCH would, and what it would change. */
export async function previewScheme(db: Db, id: string, items: readonly SchemeItemInput[]): Promise<SchemeChangePreview> {
  const current = await findExercise(db, id);
  return previewSchemeChange(db, id, normaliseScheme(items, current.maxPoints));
}

/**
 * DELETE /exos/{id} (decision 73): the exercise goes to the bin; restoring it within 30 days brings back
 * its versions, answers and grades. Audited.
 */
export async function deleteExercise(db: Db, auth: AuthContext, id: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const exercise = await findExercise(tx, id);
    await tx.update(exercises).set({ deletedAt: now }).where(eq(exercises.id, id));
    await audit(tx, auth, 'exercise.delete', id, { title: exercise.title, chapterId: exercise.chapterId });
  });
}

/** POST /exos/{id}/restore (decision 73): back in its chapter at its place; its chapter must be live. Audited. */
export async function restoreExercise(db: Db, auth: AuthContext, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ title: exercises.title, chapterId: exercises.chapterId, chapterDeletedAt: chapters.deletedAt })
      .from(exercises)
      .innerJoin(chapters, eq(chapters.id, exercises.chapterId))
      .where(and(eq(exercises.id, id), isNotNull(exercises.deletedAt)));
    if (!row) throw notFound('Cet exercice n’est pas dans la corbeille.');
    if (row.chapterDeletedAt) throw conflict('Son chapitre est dans la corbeille : restaurez d’abord le chapitre.');
    await tx.update(exercises).set({ deletedAt: null }).where(eq(exercises.id, id));
    await audit(tx, auth, 'exercise.restore', id, { title: row.title, chapterId: row.chapterId });
  });
}

/**
 * GET /exos/{eid}: staff get every version with answers; others their own version, under the same
 * rule as the chapter page (a timed chapter's statement only once its session started).
 */
export async function getExerciseFor(db: Db, auth: AuthContext, id: string, now = new Date()): Promise<ExerciseView> {
  const exercise = await findExercise(db, id);
  const { readable, staff } = await readableFor(db, auth, exercise.chapterId, now);
  if (!readable) throw forbidden('Cet exercice n’est pas disponible.');
  return presentForUser(exercise, auth.userId, staff);
}

/** Whether the caller may read the chapter's statements now: the one rule of every route that returns them. */
function readableFor(db: Db, auth: AuthContext, chapterId: string, now: Date) {
  return canReadStatementsAsStaff(auth) ? staffReadable(db, auth, chapterId, now) : pupilReadable(db, auth, chapterId, now);
}

/** GET /exos/chapter/{id}: the chapter's header and its exercises as this caller may read them. */
export async function getChapterPage(db: Db, auth: AuthContext, chapterId: string, now = new Date()): Promise<ChapterPage> {
  const { chapter, readable, staff } = await readableFor(db, auth, chapterId, now);
  const list = readable ? await loadChapterExercises(db, chapterId) : [];
  const views = list.map((e) => presentForUser(e, auth.userId, staff));
  const [headerStudentsHtml, ...statementsHtml] = await drawnStatements([chapter.headerStudents, ...views.map((v) => v.statement)]);
  return {
    _id: chapter.id,
    title: chapter.title,
    offline: chapter.offline,
    analysis: isChapterPublished(chapter, now),
    headerStudents: chapter.headerStudents,
    headerStudentsHtml,
    exercises: views.map((view, i) => ({ ...view, statementHtml: statementsHtml[i] })),
    maxTotal: sumPoints(list.filter((e) => e.answerFormat !== 'none').map((e) => e.maxPoints)),
  };
}

/** Admins, members and school staff: the chapter's access rules as chapterAccessFor reads them. */
async function staffReadable(db: Db, auth: AuthContext, chapterId: string, now: Date) {
  const access = await chapterAccessFor(db, auth, chapterId, now);
  let readable = statementsReadable(access, now);
  if (!access.staff) {
    // docs/product.md#design-3 Sessions: outside analysis mode, statements only while the session is started with
    // time left; this also refuses callers whose profile is incomplete (403).
    const session = await getChapterSessionState(db, auth, chapterId);
    readable &&= isChapterPublished(access.chapter, now) || session.status === 'started';
  }
  return { chapter: access.chapter, readable, staff: access.staff };
}

/**
 * A pupil (the start-of-test rush: every pupil loads this page within a minute): the chapter, then one
 * statement for profile, access rule and session (loadChapterContext, which refuses an incomplete
 * profile or a pupil no access group admits with 403) instead of three more lookups.
 */
async function pupilReadable(db: Db, auth: AuthContext, chapterId: string, now: Date) {
  const chapter = await findChapter(db, chapterId);
  const ctx = await loadChapterContext(db, auth, chapterId, now);
  const status = ctx.rule ? windowStatus(ctx.rule, now) : null;
  const readable =
    statementsReadable({ chapter, staff: false, rule: ctx.rule, status }, now) && (ctx.chapter.analysis || ctx.state.status === 'started');
  return { chapter, readable, staff: false };
}
