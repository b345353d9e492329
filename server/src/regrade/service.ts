import {
  formatParisDateTime,
  REGRADE_STATUSES,
  type MyRegrades,
  type RegradeAccept,
  type RegradeCreate,
  type RegradeQueue,
} from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { isChapterPublished } from '../chapters/publication.js';
import { findChapter } from '../chapters/service.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { pseudonymsFor } from '../grading/queries.js';
import { saveGrade } from '../grading/save.js';
import { assertMayRequestRegrade, canSeeNamesUnderAnonymity } from './policies.js';
import { iso, presentMine, presentQueueRequest } from './presenters.js';

export const REGRADE_NOT_PUBLISHED_MESSAGE = 'Les demandes de réexamen ouvrent à la publication des notes.';
export const REGRADE_NOT_OPEN_MESSAGE = 'Ce chapitre ne reçoit pas de demande de réexamen.';
export const REGRADE_ALREADY_OPEN_MESSAGE = 'Une demande de réexamen est déjà en cours pour cet exercice.';
export const REGRADE_HANDLED_MESSAGE = 'Cette demande a déjà été traitée.';
export const regradeClosedMessage = (until: Date) => `Les demandes de réexamen sont closes depuis le ${formatParisDateTime(until)}.`;

interface Window {
  analysis: boolean;
  /** The scheduled publication, epoch milliseconds (decision 69: it publishes as the flag does). */
  publish_ms: number | null;
  regrade_until: Date | string | null;
}

/**
 * Decision 74: a pupil may ask after publication and strictly before the chapter's closing instant;
 * without a closing instant the chapter takes no request. Throws the French 403 that says why not.
 */
function checkWindow(chapter: Window, now: Date) {
  if (!isChapterPublished({ analysis: chapter.analysis, publishAt: chapter.publish_ms }, now))
    throw forbidden(REGRADE_NOT_PUBLISHED_MESSAGE);
  if (chapter.regrade_until === null) throw forbidden(REGRADE_NOT_OPEN_MESSAGE);
  const until = new Date(chapter.regrade_until);
  if (now.getTime() >= until.getTime()) throw forbidden(regradeClosedMessage(until));
}

const windowOpen = (chapter: Window, now: Date) => {
  try {
    checkWindow(chapter, now);
    return true;
  } catch {
    return false;
  }
};

/** POST /regrade: the caller's own current answer, in an open window, one open request per exercise. Audited. */
export async function createRegradeRequest(db: Db, auth: AuthContext, input: RegradeCreate, now = new Date()): Promise<{ _id: string }> {
  return db.transaction(async (tx) => {
    const answer = await one(
      tx,
      z.object({
        id: z.string(),
        user_id: z.string(),
        exercise_id: z.string(),
        chapter_id: z.string(),
        grade: z.string().nullable(),
        answer_format: z.string(),
        current: z.boolean(),
        analysis: z.boolean(),
        publish_ms: z.number().nullable(),
        regrade_until: column.dateOrNull,
      }),
      sql`SELECT a.id, a.user_id, a.exercise_id, e.chapter_id, a.grade, e.answer_format, c.analysis,
            (extract(epoch FROM c.publish_at) * 1000)::float8 AS publish_ms, c.regrade_until,
            a.id = (SELECT b.id FROM answers b WHERE b.user_id = a.user_id AND b.exercise_id = a.exercise_id AND b.withdrawn_at IS NULL
                    ORDER BY b.seq DESC, b.created_at DESC LIMIT 1) AS current
          FROM answers a JOIN exercises e ON e.id = a.exercise_id JOIN chapters c ON c.id = e.chapter_id
          WHERE a.id = ${input.answerId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL`,
    );
    assertMayRequestRegrade(auth, answer);
    checkWindow(answer, now);
    if (!answer.current) throw badRequest('Cette réponse a été remplacée : demandez le réexamen de votre dernière réponse.');
    if (input.region !== undefined && input.page === undefined) throw badRequest('Indiquez la page de la zone marquée.');
    if (input.annotationId !== undefined && !(await hasAnnotation(tx, answer.id, input.annotationId)))
      throw badRequest('Cette annotation n’est pas sur votre copie.');
    const region = input.region === undefined ? null : JSON.stringify(input.region);
    const [created] = await rows(
      tx,
      z.object({ id: z.string() }),
      sql`INSERT INTO regrade_requests (answer_id, chapter_id, exercise_id, user_id, message, old_grade, page, region, annotation_id)
          VALUES (${answer.id}::uuid, ${answer.chapter_id}::uuid, ${answer.exercise_id}::uuid, ${auth.userId}::uuid, ${input.message},
            ${answer.grade}, ${input.page ?? null}, ${region}::jsonb, ${input.annotationId ?? null})
          ON CONFLICT (user_id, exercise_id) WHERE status = 'open' DO NOTHING
          RETURNING id`,
    );
    if (!created) throw conflict(REGRADE_ALREADY_OPEN_MESSAGE);
    await audit(tx, auth, 'regrade.request', created.id, { answerId: answer.id, exerciseId: answer.exercise_id });
    return { _id: created.id };
  });
}

/** Decision 162: a mark of this copy (any of its gradings) carries this id. */
async function hasAnnotation(tx: Tx, answerId: string, annotationId: string): Promise<boolean> {
  const [row] = await rows(
    tx,
    z.object({ found: z.boolean() }),
    sql`SELECT EXISTS (SELECT 1 FROM gradings g, jsonb_array_elements(g.annotations) m
                       WHERE g.answer_id = ${answerId}::uuid AND m->>'id' = ${annotationId}) AS found`,
  );
  return row.found;
}

/** A request as the pupil's and the correctors' lists read it. */
const requestRow = z.object({
  id: z.string(),
  answer_id: z.string(),
  user_id: z.string(),
  exercise_id: z.string(),
  exercise_title: z.string(),
  max_points: z.number(),
  message: z.string(),
  status: z.enum(REGRADE_STATUSES),
  reply: z.string().nullable(),
  old_grade: z.string().nullable(),
  new_grade: z.string().nullable(),
  created_at: column.date,
  handled_at: column.dateOrNull,
  page: z.number().nullable(),
  region: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }).nullable(),
  annotation_id: z.string().nullable(),
  annotation_page: z.number().nullable(),
  annotation_text: z.string().nullable(),
});

/** Decision 162: the mark a request points at, read from the copy's gradings (its page and text). */
const requestColumns = sql`r.id, r.answer_id, r.user_id, r.exercise_id, e.title AS exercise_title, e.max_points, r.message, r.status,
  r.reply, r.old_grade, r.new_grade, r.created_at, r.handled_at, r.page, r.region, r.annotation_id,
  (SELECT (m->>'page')::int FROM gradings g, jsonb_array_elements(g.annotations) m
    WHERE r.annotation_id IS NOT NULL AND g.answer_id = r.answer_id AND m->>'id' = r.annotation_id LIMIT 1) AS annotation_page,
  (SELECT m->>'text' FROM gradings g, jsonb_array_elements(g.annotations) m
    WHERE r.annotation_id IS NOT NULL AND g.answer_id = r.answer_id AND m->>'id' = r.annotation_id LIMIT 1) AS annotation_text`;

/** GET /regrade/mine/{chapterId}: the caller's own requests of a chapter and whether they may ask now. */
export async function listMyRegrades(db: Db, auth: AuthContext, chapterId: string, now = new Date()): Promise<MyRegrades> {
  const chapter = await findChapter(db, chapterId);
  const list = await rows(
    db,
    requestRow,
    sql`SELECT ${requestColumns} FROM regrade_requests r JOIN exercises e ON e.id = r.exercise_id
        WHERE r.user_id = ${auth.userId}::uuid AND r.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL
        ORDER BY r.created_at DESC, r.id`,
  );
  const window = { analysis: chapter.analysis, publish_ms: chapter.publishAt?.getTime() ?? null, regrade_until: chapter.regradeUntil };
  // Grades only once published: before, a pupil reads no grade of theirs anywhere.
  const current = isChapterPublished(chapter, now)
    ? await rows(
        db,
        z.object({ id: z.string(), exercise_id: z.string(), title: z.string(), max_points: z.number(), grade: z.string().nullable() }),
        sql`SELECT DISTINCT ON (e.position, e.id) a.id, e.id AS exercise_id, e.title, e.max_points, a.grade
            FROM exercises e JOIN answers a ON a.exercise_id = e.id
            WHERE e.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL AND e.answer_format <> 'none'
              AND a.user_id = ${auth.userId}::uuid AND a.withdrawn_at IS NULL
            ORDER BY e.position, e.id, a.seq DESC, a.created_at DESC`,
      )
    : [];
  return {
    open: windowOpen(window, now),
    regradeUntil: iso(chapter.regradeUntil),
    answers: current.map((a) => ({
      answerId: a.id,
      exercise: { _id: a.exercise_id, title: a.title, maxPoints: a.max_points },
      grade: a.grade,
    })),
    requests: list.map(presentMine),
  };
}

/**
 * GET /regrade?chapter= (correctors and admins): the chapter's requests, open ones first and oldest
 * first, with the copy's grade now; under anonymous correction a corrector who is not an admin reads
 * pseudonyms (decision 62).
 */
export async function listRegradeQueue(db: Db, auth: AuthContext, chapterId: string, now = new Date()): Promise<RegradeQueue> {
  const chapter = await findChapter(db, chapterId);
  const list = await rows(
    db,
    requestRow.extend({
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      grade: z.string().nullable(),
      h_first: z.string().nullable(),
      h_last: z.string().nullable(),
      handled_by: z.string().nullable(),
    }),
    sql`SELECT ${requestColumns}, u.first_name, u.last_name, a.grade, r.handled_by, h.first_name AS h_first, h.last_name AS h_last
        FROM regrade_requests r JOIN exercises e ON e.id = r.exercise_id JOIN users u ON u.id = r.user_id
        JOIN answers a ON a.id = r.answer_id LEFT JOIN users h ON h.id = r.handled_by
        WHERE r.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL
        ORDER BY (r.status = 'open') DESC, CASE WHEN r.status = 'open' THEN r.created_at END ASC, r.handled_at DESC, r.id`,
  );
  const pseudonyms =
    chapter.anonymousGrading && !canSeeNamesUnderAnonymity(auth)
      ? await pseudonymsFor(
          db,
          chapterId,
          list.map((r) => r.user_id),
        )
      : null;
  return {
    chapter: {
      _id: chapter.id,
      title: chapter.title,
      regradeUntil: iso(chapter.regradeUntil),
      published: isChapterPublished(chapter, now),
    },
    requests: list.map((r) => presentQueueRequest(r, pseudonyms)),
  };
}

/** The open request, locked for this transaction; 404 unknown (or binned), 409 already handled. */
async function lockOpenRequest(tx: Tx, id: string) {
  const request = await one(
    tx,
    z.object({
      id: z.string(),
      answer_id: z.string(),
      status: z.enum(REGRADE_STATUSES),
      grade_timestamp: column.dateOrNull,
      grade_comment: z.string().nullable(),
      hidden: z.boolean(),
    }),
    sql`SELECT r.id, r.answer_id, r.status, a.grade_timestamp, a.grade_comment, a.hidden
        FROM regrade_requests r JOIN answers a ON a.id = r.answer_id JOIN exercises e ON e.id = r.exercise_id JOIN chapters c ON c.id = r.chapter_id
        WHERE r.id = ${id}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL
        FOR UPDATE OF r`,
  );
  if (!request) throw notFound('Demande de réexamen introuvable.');
  if (request.status !== 'open') throw conflict(REGRADE_HANDLED_MESSAGE);
  return request;
}

/**
 * POST /regrade/{id}/accept: the new grade is saved as a corrector's grade (POST /answer/grade's rules:
 * maxPoints, a grading row, the grade history) in the same transaction as the reply. Audited.
 */
export async function acceptRegrade(db: Db, auth: AuthContext, id: string, input: RegradeAccept): Promise<void> {
  await db.transaction(async (tx) => {
    const request = await lockOpenRequest(tx, id);
    const outcome = await saveGrade(tx, auth, {
      answerId: request.answer_id,
      grade: input.grade,
      grade_comment: request.grade_comment ?? '',
      hidden: request.hidden,
      expectedGradeTimestamp: iso(request.grade_timestamp),
    });
    if (!outcome.ok) throw conflict(outcome.conflict.message);
    await tx.execute(sql`
      UPDATE regrade_requests SET status = 'accepted', reply = ${input.reply}, new_grade = ${outcome.saved.grade},
        handled_by = ${auth.userId}::uuid, handled_at = now()
      WHERE id = ${id}::uuid`);
    await audit(tx, auth, 'regrade.accept', id, { answerId: request.answer_id, grade: outcome.saved.grade });
  });
}

/** POST /regrade/{id}/decline: the grade stays; the pupil reads the reply. Audited. */
export async function declineRegrade(db: Db, auth: AuthContext, id: string, reply: string): Promise<void> {
  await db.transaction(async (tx) => {
    const request = await lockOpenRequest(tx, id);
    await tx.execute(sql`
      UPDATE regrade_requests SET status = 'declined', reply = ${reply}, handled_by = ${auth.userId}::uuid, handled_at = now()
      WHERE id = ${id}::uuid`);
    await audit(tx, auth, 'regrade.decline', id, { answerId: request.answer_id });
  });
}

/** PUT /regrade/window/{chapterId} (admins): the closing instant of a chapter's requests, or null. Audited. */
export async function setRegradeWindow(db: Db, auth: AuthContext, chapterId: string, until: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    await findChapter(tx, chapterId);
    await tx.execute(sql`UPDATE chapters SET regrade_until = ${until}::timestamptz WHERE id = ${chapterId}::uuid`);
    await audit(tx, auth, 'regrade.window', chapterId, { regradeUntil: until });
  });
}
