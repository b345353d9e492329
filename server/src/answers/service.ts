import {
  numericAnswerError,
  PDF_PATH_PATTERN,
  type AnswerSave,
  type AnswerSaved,
  type ErrorCode,
  type MyAnswer,
} from '@olympe/contract';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { authFromRow, checkAuth, claimsOf, SESSION_EXPIRED_MESSAGE, type AuthContext, type AuthRow } from '../auth/context.js';
import { assertMayAnswerWithFile } from './policies.js';
import { TtlCache } from './ttl-cache.js';
import { queryRows, type Db } from '../db/client.js';
import { answers, exercises, files } from '../db/schema.js';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import { exerciseContextOf, exerciseContextSql, loadChapterContext, queryExerciseContext } from '../sessions/service.js';
import { checkSaveAllowed, FINISHED_MESSAGE, NOT_STARTED_MESSAGE } from '../sessions/state.js';

export const PUBLISHED_MESSAGE = 'Les résultats sont publiés : les réponses ne sont plus modifiables.';
export const PAPER_CHAPTER_MESSAGE =
  'Cette épreuve se passe sur papier : votre copie est scannée et déposée par votre centre d’examen, pas en ligne.';

/** The codes of a refused save the web app tells apart (before the window opens it stays `forbidden`). */
const SAVE_REFUSAL_CODES: Record<string, ErrorCode> = { [FINISHED_MESSAGE]: 'test_finished', [NOT_STARTED_MESSAGE]: 'test_not_started' };

/**
 * The insert of a save, guarded by the fingerprint of its context (sessions/service.ts
 * EXERCISE_CONTEXT_SQL): the row is written only if the chapter, rules, session, profile, roles and
 * token version are still exactly those the decision was made on. One statement: the context, the
 * duplicate check, the insert and whether a newer save exists. $1 user, $2 exercise, $3 actor,
 * $4 answer, $5 file, $6 seq, $7 ip, $8 fingerprint (NULL: no guard, as for a PDF answer), $9 the token's
 * session (decision 136).
 */
const GUARDED_INSERT_SQL = `
  WITH ctx AS (${exerciseContextSql('$1::uuid', '$2::uuid', '$3::uuid', '$9::uuid')}),
  ok AS (SELECT 1 FROM ctx WHERE $8::text IS NULL OR md5(ctx::text) = $8::text),
  ins AS (
    INSERT INTO answers (user_id, exercise_id, answer, file_id, seq, ip)
    SELECT $1::uuid, $2::uuid, $4::text, $5::uuid, $6::bigint, $7::text FROM ok
    WHERE NOT EXISTS (SELECT 1 FROM answers WHERE user_id = $1::uuid AND exercise_id = $2::uuid AND seq = $6::bigint)
    ON CONFLICT (user_id, exercise_id, seq) WHERE seq > 0 DO NOTHING
    RETURNING id
  )
  SELECT EXISTS (SELECT 1 FROM ok) AS matched, EXISTS (SELECT 1 FROM ins) AS inserted,
    EXISTS (
      SELECT 1 FROM answers
      WHERE user_id = $1::uuid AND exercise_id = $2::uuid AND seq > $6::bigint AND withdrawn_at IS NULL
    ) AS newer`;

/**
 * The same guarded insert for several saves in one statement (and one commit): rows of
 * `json_to_recordset($1)`, each with its own context row and fingerprint. A batch never holds two
 * saves of the same (user, exercise), so each row's duplicate and "newer" answers are those it
 * would get alone.
 */
const BATCH_INSERT_SQL = `
  WITH inp AS (
    SELECT * FROM json_to_recordset($1::json)
      AS x(n int, user_id uuid, exercise_id uuid, actor_id uuid, session_id uuid, answer text, seq bigint, ip text, fingerprint text)
  ),
  ok AS (
    SELECT inp.* FROM inp
    CROSS JOIN LATERAL (${exerciseContextSql('inp.user_id', 'inp.exercise_id', 'inp.actor_id', 'inp.session_id')}) ctx
    WHERE md5(ctx::text) = inp.fingerprint
  ),
  ins AS (
    INSERT INTO answers (user_id, exercise_id, answer, file_id, seq, ip)
    SELECT ok.user_id, ok.exercise_id, ok.answer, NULL, ok.seq, ok.ip FROM ok
    WHERE NOT EXISTS (SELECT 1 FROM answers a WHERE a.user_id = ok.user_id AND a.exercise_id = ok.exercise_id AND a.seq = ok.seq)
    ON CONFLICT (user_id, exercise_id, seq) WHERE seq > 0 DO NOTHING
    RETURNING user_id, exercise_id
  )
  SELECT inp.n,
    EXISTS (SELECT 1 FROM ok WHERE ok.n = inp.n) AS matched,
    EXISTS (SELECT 1 FROM ins WHERE ins.user_id = inp.user_id AND ins.exercise_id = inp.exercise_id) AS inserted,
    EXISTS (
      SELECT 1 FROM answers a
      WHERE a.user_id = inp.user_id AND a.exercise_id = inp.exercise_id AND a.seq > inp.seq AND a.withdrawn_at IS NULL
    ) AS newer
  FROM inp ORDER BY inp.n`;

interface PendingSave {
  userId: string;
  exerciseId: string;
  actorId: string | null;
  sessionId: string | null;
  answer: string;
  seq: number;
  ip: string;
  fingerprint: string;
  done: (result: InsertResult | Error) => void;
}

/**
 * Memoised saves go through this per-database queue (bench/rush/README.md "Batching"): at most
 * `SAVE_BATCH.maxInFlight` save statements at a time; a save arriving while they run waits for the next free
 * slot and leaves with the saves queued behind it as one statement. Under low load every save is
 * sent alone at once (no added delay); under load, fewer statements, socket writes and commits.
 * Each save is answered only after the statement that holds it has committed. If a batch fails,
 * its saves are retried one by one, so one save's error is never another's.
 */
export const SAVE_BATCH = { maxInFlight: 3, maxSize: 64 };
export const saveBatchStats = { statements: 0, batches: 0, batchedSaves: 0, batchMatched: 0, fallbacks: 0 };

class SaveQueue {
  private queue: PendingSave[] = [];
  private inFlight = 0;
  constructor(private db: Db) {}

  submit(save: Omit<PendingSave, 'done'>): Promise<InsertResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...save, done: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      this.pump();
    });
  }

  get queued() {
    return this.queue.length;
  }

  pump() {
    while (this.inFlight < SAVE_BATCH.maxInFlight && this.queue.length > 0) {
      const batch: PendingSave[] = [];
      const keys = new Set<string>();
      const rest: PendingSave[] = [];
      for (const save of this.queue) {
        const key = `${save.userId}|${save.exerciseId}`;
        if (batch.length < SAVE_BATCH.maxSize && !keys.has(key)) {
          keys.add(key);
          batch.push(save);
        } else rest.push(save);
      }
      this.queue = rest;
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(batch: PendingSave[]) {
    saveBatchStats.statements++;
    if (batch.length === 1) return this.runOne(batch[0]);
    saveBatchStats.batches++;
    saveBatchStats.batchedSaves += batch.length;
    let rows: Array<InsertResult & { n: number }>;
    try {
      const input = batch.map((b, n) => ({
        n,
        user_id: b.userId,
        exercise_id: b.exerciseId,
        actor_id: b.actorId,
        session_id: b.sessionId,
        answer: b.answer,
        seq: b.seq,
        ip: b.ip,
        fingerprint: b.fingerprint,
      }));
      rows = await queryRows<InsertResult & { n: number }>(this.db, 'answer_insert_batch', BATCH_INSERT_SQL, [JSON.stringify(input)]);
    } catch {
      saveBatchStats.fallbacks++;
      await Promise.all(batch.map((b) => this.runOne(b)));
      return;
    }
    const answered = new Set<number>();
    for (const row of rows) {
      answered.add(row.n);
      if (row.matched) saveBatchStats.batchMatched++;
      batch[row.n].done({ matched: row.matched, inserted: row.inserted, newer: row.newer });
    }
    // Never leave a save unanswered: one without its row (cannot happen) is treated as changed.
    batch.forEach((b, n) => answered.has(n) || b.done({ matched: false, inserted: false, newer: false }));
  }

  private async runOne(save: PendingSave) {
    try {
      save.done(
        await guardedInsertOne(this.db, {
          userId: save.userId,
          actorId: save.actorId,
          sessionId: save.sessionId,
          exerciseId: save.exerciseId,
          answer: save.answer,
          fileId: null,
          seq: save.seq,
          ip: save.ip,
          fingerprint: save.fingerprint,
        }),
      );
    } catch (err) {
      save.done(err instanceof Error ? err : new Error(String(err)));
    }
  }
}

const saveQueues = new WeakMap<Db, SaveQueue>();
/** The save queue of a database (tests hold it with SAVE_BATCH.maxInFlight = 0, then `pump()`). */
export const saveQueueOf = (db: Db) => {
  let queue = saveQueues.get(db);
  if (!queue) saveQueues.set(db, (queue = new SaveQueue(db)));
  return queue;
};

/** A save decision that held, valid while its context row keeps the same fingerprint. */
interface SaveMemo {
  fingerprint: string;
  /** The decision depends on the clock only through this window (status `started`). */
  fromMs: number;
  untilMs: number;
}

/**
 * Per instance: (user, token version, impersonator, exercise) → the last allowed decision. Every
 * use is re-checked by the fingerprint inside the insert, so a stale entry only costs the full
 * path; the bound and TTL limit memory (3,000 pupils × 5 exercises fit 5 times).
 */
export const saveMemos = new TtlCache<string, SaveMemo>(75_000, 15 * 60_000);

const memoKey = (auth: AuthContext, exerciseId: string) => `${auth.userId}|${auth.tokenVersion}|${auth.actorId ?? ''}|${auth.sessionId ?? ''}|${exerciseId}`;

interface InsertResult {
  matched: boolean;
  inserted: boolean;
  newer: boolean;
}

async function guardedInsert(
  db: Db,
  auth: AuthContext,
  values: { exerciseId: string; answer: string; fileId: string | null; seq: number; ip: string; fingerprint: string | null },
): Promise<InsertResult> {
  return guardedInsertOne(db, { ...values, userId: auth.userId, actorId: auth.actorId ?? null, sessionId: auth.sessionId ?? null });
}

async function guardedInsertOne(
  db: Db,
  values: {
    userId: string;
    actorId: string | null;
    sessionId: string | null;
    exerciseId: string;
    answer: string;
    fileId: string | null;
    seq: number;
    ip: string;
    fingerprint: string | null;
  },
): Promise<InsertResult> {
  const [row] = await queryRows<InsertResult>(db, 'answer_insert', GUARDED_INSERT_SQL, [
    values.userId,
    values.exerciseId,
    values.actorId,
    values.answer,
    values.fileId,
    values.seq,
    values.ip,
    values.fingerprint,
    values.sessionId,
  ]);
  return row;
}

/**
 * POST /answer (docs/product.md#design-3 Answers): appends one row to the history. A save repeating a stored
 * (user, exercise, seq) is a no-op; an older seq is kept in the history but never becomes the
 * current answer, which is the row with the highest seq. Refused after the deadline + grace.
 *
 * Hot path (bench/rush/README.md): the first save of a pupil on an exercise loads the context,
 * decides, and inserts under the context's fingerprint (2 statements); later saves within the
 * decision's time window send only the guarded insert (1 statement), and fall back to the full
 * path when anything the decision depends on changed. Behaviour is the same as deciding afresh.
 */
export async function saveAnswer(db: Db, requestAuth: AuthContext, input: AnswerSave, ip: string): Promise<AnswerSaved> {
  let auth = requestAuth;
  const now = new Date();
  const seq = input.seq ?? now.getTime();
  const key = memoKey(auth, input.exerciseId);
  const memo = saveMemos.get(key);
  const t = now.getTime();
  if (memo && t >= memo.fromMs && t < memo.untilMs && isNumericAnswer(input.answer)) {
    const result = await saveQueueOf(db).submit({
      userId: auth.userId,
      actorId: auth.actorId ?? null,
      sessionId: auth.sessionId ?? null,
      exerciseId: input.exerciseId,
      answer: input.answer,
      seq,
      ip,
      fingerprint: memo.fingerprint,
    });
    if (result.matched) return { exercise: input.exerciseId, seq, current: !result.newer, duplicate: !result.inserted };
    saveMemos.delete(key);
  }
  for (let attempt = 0; ; attempt++) {
    const row = await queryExerciseContext(db, auth, input.exerciseId);
    if (!row) {
      // A refused token gets its 401 before the 404, as on any route.
      if (auth.unchecked && (await checkAuth(db, claimsOf(auth))).rejected) throw unauthorized(SESSION_EXPIRED_MESSAGE, 'session_expired');
      throw notFound('Exercice introuvable.');
    }
    // The row carries the token checks (SELF_CHECKED_ROUTES): the same verdict and roles as resolveAuth.
    if (auth.tokenVersion !== undefined) {
      const checked = authFromRow(claimsOf(auth), row.user_id ? (row as AuthRow) : undefined);
      if (!checked.auth) throw unauthorized(SESSION_EXPIRED_MESSAGE, 'session_expired');
      auth = checked.auth;
    }
    const ctx = exerciseContextOf(row, auth, now);
    const { exercise } = ctx;
    if (!ctx.staff) {
      // A paper chapter's answers are the centre's sorted scans: nobody else may replace them.
      if (ctx.chapter.offline) throw forbidden(PAPER_CHAPTER_MESSAGE);
      if (ctx.chapter.analysis) throw forbidden(PUBLISHED_MESSAGE);
      const verdict = checkSaveAllowed(ctx.state, now, ctx.session !== null);
      if (!verdict.ok) throw forbidden(verdict.message, SAVE_REFUSAL_CODES[verdict.message]);
    }
    const fileId = await checkAnswerValue(db, auth, exercise.answerFormat, input.answer);
    // A PDF answer's file check is not part of the fingerprint: it is inserted unguarded, as is a
    // save whose context changed twice between the read and the insert (the behaviour before the memo).
    const guard = exercise.answerFormat === 'numeric' && attempt < 2 ? row.fingerprint : null;
    const result = await guardedInsert(db, auth, { exerciseId: exercise.id, answer: input.answer, fileId, seq, ip, fingerprint: guard });
    if (!result.matched) continue;
    if (guard && ctx.state.status === 'started') {
      saveMemos.set(key, {
        fingerprint: guard,
        fromMs: ctx.rule?.accessStart?.getTime() ?? -Infinity,
        untilMs: ctx.state.deadline?.getTime() ?? Infinity,
      });
    }
    return { exercise: exercise.id, seq, current: !result.newer, duplicate: !result.inserted };
  }
}

const isNumericAnswer = (answer: string) => numericAnswerError(answer) === null;

/** Validates the value for the exercise's format; returns the referenced file id of a PDF answer. */
async function checkAnswerValue(db: Db, auth: AuthContext, format: string, answer: string): Promise<string | null> {
  if (format === 'numeric') {
    // The text is stored as typed (the corrector reads it); it must be a number the automatic
    // correction can read, or empty (clearing an answer is always allowed).
    const error = numericAnswerError(answer);
    if (error) throw badRequest(error);
    return null;
  }
  if (format === 'pdf') {
    const id = PDF_PATH_PATTERN.exec(answer)?.[1];
    if (!id) throw badRequest('Réponse invalide : le chemin d’un PDF téléversé est attendu.');
    const [file] = await db.select({ ownerId: files.ownerId }).from(files).where(eq(files.id, id));
    if (!file) throw badRequest('Fichier PDF introuvable : téléversez-le d’abord.');
    assertMayAnswerWithFile(auth, file);
    return id;
  }
  throw badRequest('Cet exercice n’attend pas de réponse.');
}

/**
 * GET /answer/chapter/{id}: the caller's current answer per exercise of the chapter; grades and
 * comments only once the chapter's results are published (`analysis`).
 */
export async function listMyChapterAnswers(db: Db, auth: AuthContext, chapterId: string): Promise<MyAnswer[]> {
  const ctx = await loadChapterContext(db, auth, chapterId);
  const rows = await db
    .selectDistinctOn([answers.exerciseId], {
      exercise: answers.exerciseId,
      answer: answers.answer,
      seq: answers.seq,
      createdAt: answers.createdAt,
      grade: answers.grade,
      gradeComment: answers.gradeComment,
    })
    .from(answers)
    .innerJoin(exercises, eq(exercises.id, answers.exerciseId))
    .where(and(eq(exercises.chapterId, chapterId), isNull(exercises.deletedAt), eq(answers.userId, auth.userId), isNull(answers.withdrawnAt)))
    .orderBy(answers.exerciseId, desc(answers.seq), desc(answers.createdAt));
  const published = ctx.chapter.analysis;
  return rows.map((r) => ({
    exercise: r.exercise,
    answer: r.answer,
    seq: r.seq,
    timestamp: r.createdAt.toISOString(),
    ...(published ? { grade: r.grade, grade_comment: r.gradeComment } : {}),
  }));
}
