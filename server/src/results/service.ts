import {
  RESULTS_NOT_PUBLISHED_MESSAGE,
  type PreviewOptionsQuery,
  sumPoints,
  type Publication,
  type PublicationUpdate,
  stillAnsweringText,
  thresholdAboveMaxMessage,
} from '@olympe/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { isChapterPublished } from '../chapters/publication.js';
import { countStillAnswering } from './still-answering.js';
import { chapterAccessFor, findChapter } from '../chapters/service.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { chapters } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { queueResultsPublished } from '../mail/notifications.js';
import { assertMaySeeResults, resultsInstitutionOf } from './policies.js';
import { Ranking, roundTotal } from './ranking.js';

type ChapterRow = typeof chapters.$inferSelect;

export interface ResultExerciseRow {
  id: string;
  title: string;
  maxPoints: number;
}

export interface GradeCell {
  grade: string | null;
  comment: string;
}

/** A chapter's results as the presenters need them: its answerable exercises, every participant's total, and the ranking. */
export interface ChapterResults {
  chapter: ChapterRow;
  exercises: ResultExerciseRow[];
  maxTotal: number;
  /** Participants: who has a current answer to one of the chapter's answerable exercises. */
  totals: Map<string, number>;
  ranking: Ranking;
}

/** The current answers of a chapter's answerable exercises (the latest save per pupil and exercise). */
const currentAnswersSql = (chapterId: string) => sql`
  SELECT DISTINCT ON (a.user_id, a.exercise_id) a.user_id, a.exercise_id, a.grade, a.grade_comment
  FROM answers a JOIN exercises e ON e.id = a.exercise_id
  WHERE e.chapter_id = ${chapterId}::uuid AND e.answer_format <> 'none' AND e.deleted_at IS NULL AND a.withdrawn_at IS NULL
  ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC`;

/** Loads a chapter's exercises and every participant's total (one row per participant, summed by the database). */
export async function loadChapterResults(db: Tx, chapterId: string): Promise<ChapterResults> {
  const chapter = await findChapter(db, chapterId);
  const exercises = await rows(
    db,
    z.object({ id: z.string(), title: z.string(), max_points: column.number }),
    sql`SELECT id, title, max_points FROM exercises
        WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' AND deleted_at IS NULL ORDER BY position, id`,
  );
  // docs/product.md#design-3: the total sums the numeric grades; X and ungraded count nothing.
  const totalRows = await rows(
    db,
    z.object({ user_id: z.string(), total: column.number }),
    sql`SELECT cur.user_id,
          coalesce(sum(CASE WHEN cur.grade ~ '^-?[0-9]+([.][0-9]+)?$' THEN cur.grade::float8 END), 0)::float8 AS total
        FROM (${currentAnswersSql(chapterId)}) cur GROUP BY cur.user_id`,
  );
  const totals = new Map(totalRows.map((r) => [r.user_id, roundTotal(Number(r.total))]));
  return {
    chapter,
    exercises: exercises.map((e) => ({ id: e.id, title: e.title, maxPoints: e.max_points })),
    maxTotal: sumPoints(exercises.map((e) => e.max_points)),
    totals,
    ranking: new Ranking(totals.values()),
  };
}

/** The current answers (grade and comment) of some pupils in a chapter, by pupil then exercise. */
export async function gradesOf(db: Tx, chapterId: string, userIds: readonly string[]): Promise<Map<string, Map<string, GradeCell>>> {
  const out = new Map<string, Map<string, GradeCell>>();
  if (userIds.length === 0) return out;
  const found = await rows(
    db,
    z.object({ user_id: z.string(), exercise_id: z.string(), grade: z.string().nullable(), grade_comment: z.string().nullable() }),
    sql`SELECT * FROM (${currentAnswersSql(chapterId)}) cur WHERE cur.user_id = ANY(${`{${userIds.join(',')}}`}::uuid[])`,
  );
  for (const r of found) {
    let cells = out.get(r.user_id);
    if (!cells) out.set(r.user_id, (cells = new Map()));
    cells.set(r.exercise_id, { grade: r.grade, comment: r.grade_comment ?? '' });
  }
  return out;
}

/**
 * GET /results/{chapterId}: the caller's own results, once published (403 before, with the French
 * message). A pupil who did not take part still needs the chapter's access to read its card.
 */
export async function loadOwnResults(db: Db, auth: AuthContext, chapterId: string, now = new Date()) {
  const results = await loadChapterResults(db, chapterId);
  if (!isChapterPublished(results.chapter, now)) throw forbidden(RESULTS_NOT_PUBLISHED_MESSAGE);
  if (!results.totals.has(auth.userId)) await chapterAccessFor(db, auth, chapterId, now);
  return { results, grades: (await gradesOf(db, chapterId, [auth.userId])).get(auth.userId) ?? new Map<string, GradeCell>() };
}

/**
 * GET /results/{chapterId}/preview/{userId} (admins): exactly the card that pupil gets, published or not, under the
 * options the dialog holds (saved or not: the admin sees the effect of a change before saving it).
 */
export async function loadPreview(db: Db, chapterId: string, userId: string, options: PreviewOptionsQuery = {}) {
  const saved = await loadChapterResults(db, chapterId);
  const { chapter } = saved;
  const threshold = options.qualificationThreshold;
  const results: ChapterResults = {
    ...saved,
    chapter: {
      ...chapter,
      showRank: options.showRank === undefined ? chapter.showRank : options.showRank === 'true',
      qualificationThreshold: threshold === undefined ? chapter.qualificationThreshold : threshold === '' ? null : threshold,
      qualificationText: options.qualificationText || chapter.qualificationText,
    },
  };
  const [user] = await rows(db, z.object({ id: z.string() }), sql`SELECT id FROM users WHERE id = ${userId}::uuid`);
  if (!user) throw notFound('Élève introuvable.');
  return { results, grades: (await gradesOf(db, chapterId, [userId])).get(userId) ?? new Map<string, GradeCell>() };
}

const institutionPupil = z.object({
  id: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  grade: z.string().nullable(),
  gender: z.string().nullable(),
});
export type InstitutionPupil = z.output<typeof institutionPupil>;

/** GET /results/{chapterId}/institution: the participants of one school, once published (admins: any time). */
export async function loadInstitutionResults(db: Db, auth: AuthContext, chapterId: string, requested?: string, now = new Date()) {
  const institutionId = resultsInstitutionOf(auth, requested);
  const results = await loadChapterResults(db, chapterId);
  assertMaySeeResults(auth, results.chapter, now);
  const institution = await one(
    db,
    z.object({ id: z.string(), name: z.string() }),
    sql`SELECT id, name FROM institutions WHERE id = ${institutionId}::uuid`,
  );
  if (!institution) throw notFound('Établissement introuvable.');
  const pupils = (
    await rows(
      db,
      institutionPupil,
      sql`SELECT id, first_name, last_name, grade, gender FROM users
          WHERE institution_id = ${institutionId}::uuid ORDER BY last_name, first_name, id`,
    )
  ).filter((p) => results.totals.has(p.id));
  const grades = await gradesOf(
    db,
    chapterId,
    pupils.map((p) => p.id),
  );
  return { results, institution, pupils, grades };
}

/** GET /results/{chapterId}/publication (admins). */
export async function getPublication(db: Db, chapterId: string, now = new Date()): Promise<Publication> {
  const results = await loadChapterResults(db, chapterId);
  const { chapter } = results;
  const counts = await one(
    db,
    z.object({ answers: column.number, graded: column.number }),
    sql`SELECT count(*)::int AS answers, count(cur.grade)::int AS graded FROM (${currentAnswersSql(chapterId)}) cur`,
  );
  const ids = [...results.totals.keys()];
  const pupils =
    ids.length === 0
      ? []
      : await rows(
          db,
          z.object({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() }),
          sql`SELECT id, first_name, last_name FROM users WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[]) ORDER BY last_name, first_name, id`,
        );
  return {
    _id: chapter.id,
    title: chapter.title,
    analysis: chapter.analysis,
    publishAt: chapter.publishAt?.toISOString() ?? null,
    published: isChapterPublished(chapter, now),
    showRank: chapter.showRank,
    qualificationThreshold: chapter.qualificationThreshold,
    qualificationText: chapter.qualificationText,
    copiesReturned: chapter.copiesReturned,
    correctorNamed: chapter.correctorNamed,
    maxTotal: results.maxTotal,
    counts: { pupils: ids.length, answers: Number(counts?.answers ?? 0), graded: Number(counts?.graded ?? 0) },
    pupils: pupils.map((p) => ({ _id: p.id, firstName: p.first_name, lastName: p.last_name })),
  };
}

/** What PUT /results/{chapterId}/publication did. */
export type PublicationOutcome = { mode: PublicationUpdate['mode']; pastInstant: boolean };

/** Decision 139: the pupils still able to answer, whose number the admin must confirm (409, `still_answering`). */
const stillAnsweringRefusal = (n: number) =>
  conflict(`${stillAnsweringText(n)} à ce chapitre : confirmez la publication pour leur montrer les résultats.`, 'still_answering', {
    stillAnswering: n,
  });

/**
 * PUT /results/{chapterId}/publication (admins): publish now, at an instant, or withdraw; and the
 * options pupils' cards follow. Audited; publishing now mails who took part (as the flag did).
 * Decision 139: an instant already past means now; a publication (now or scheduled) at an instant when
 * pupils may still answer is refused unless `confirm` is their number (still-answering.ts).
 */
export async function updatePublication(
  db: Db,
  auth: AuthContext,
  chapterId: string,
  input: PublicationUpdate,
  now = new Date(),
): Promise<PublicationOutcome> {
  return db.transaction(async (tx) => {
    const before = await findChapter(tx, chapterId);
    if (input.qualificationThreshold !== null) {
      // Decision 139: a threshold no pupil can reach is a typing slip (« 15 » for « 1,5 »), refused.
      const [{ max_total }] = await rows(
        tx,
        z.object({ max_total: column.number }),
        sql`SELECT coalesce(sum(max_points), 0)::float8 AS max_total FROM exercises
            WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' AND deleted_at IS NULL`,
      );
      const maxTotal = Number(max_total);
      if (input.qualificationThreshold > maxTotal + 1e-9) throw badRequest(thresholdAboveMaxMessage(maxTotal));
    }
    const pastInstant = input.mode === 'scheduled' && new Date(input.publishAt!).getTime() <= now.getTime();
    const mode = pastInstant ? 'now' : input.mode;
    if (mode !== 'unpublished' && !before.offline && !isChapterPublished(before, now)) {
      const at = mode === 'now' ? now : new Date(input.publishAt!);
      const stillAnswering = await countStillAnswering(tx, chapterId, at);
      if (stillAnswering > 0 && input.confirm !== stillAnswering) throw stillAnsweringRefusal(stillAnswering);
    }
    const timing =
      mode === 'now'
        ? { analysis: true, publishAt: null }
        : mode === 'scheduled'
          ? { analysis: false, publishAt: new Date(input.publishAt!) }
          : { analysis: false, publishAt: null };
    const options = {
      showRank: input.showRank,
      qualificationThreshold: input.qualificationThreshold,
      qualificationText: input.qualificationText,
      // Decision 162: the returned copies' switches, kept as they are when absent.
      copiesReturned: input.copiesReturned ?? before.copiesReturned,
      correctorNamed: input.correctorNamed ?? before.correctorNamed,
    };
    await tx
      .update(chapters)
      .set({ ...timing, ...options })
      .where(eq(chapters.id, chapterId));
    await audit(tx, auth, 'chapter.publication', chapterId, {
      before: {
        analysis: before.analysis,
        publishAt: before.publishAt?.toISOString() ?? null,
        showRank: before.showRank,
        qualificationThreshold: before.qualificationThreshold,
        qualificationText: before.qualificationText,
        copiesReturned: before.copiesReturned,
        correctorNamed: before.correctorNamed,
      },
      after: { ...timing, publishAt: timing.publishAt?.toISOString() ?? null, ...options },
    });
    if (mode === 'now' && !isChapterPublished(before, now)) await queueResultsPublished(tx, chapterId);
    return { mode, pastInstant };
  });
}
