import { z } from 'zod';
import { queryRows, type Db } from '../db/client.js';
import { exerciseContextSql } from '../sessions/queries.js';

/** The save's statements (hot path, bench/rush/README.md): named raw SQL, one prepared statement each. */

/**
 * The insert of a save, guarded by the fingerprint of its context (sessions/queries.ts
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
export const BATCH_INSERT_SQL = `
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

/** What a guarded insert tells: the context still held, the row was written, a newer save exists. */
export const insertResultShape = z.object({ matched: z.boolean(), inserted: z.boolean(), newer: z.boolean() });
export type InsertResult = z.output<typeof insertResultShape>;

/** One row of BATCH_INSERT_SQL: the result of the save at index `n`. */
export const batchResultShape = insertResultShape.extend({ n: z.number() });

export async function guardedInsertOne(
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
  const [row] = await queryRows(db, insertResultShape, 'answer_insert', GUARDED_INSERT_SQL, [
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
