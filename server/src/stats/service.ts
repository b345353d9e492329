import {
  cellNumber,
  parseDecimal,
  parseNumericAnswerText,
  sameNumber,
  TOP_ANSWERS,
  type BankCommentUses,
  type ChapterStats,
  type Errata,
  type ErrataResult,
  type ExerciseStats,
  type FrequentAnswer,
  type VersionStats,
} from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { findChapter } from '../chapters/service.js';
import { audit } from '../db/audit.js';
import type { Db } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { autoCorrectChapter } from '../grading/autocorrect.js';

const exerciseRow = z.object({
  id: z.string(),
  title: z.string(),
  // 'none' is left out by the query.
  answer_format: z.enum(['numeric', 'pdf']),
  max_points: z.number(),
  expected: z.array(z.string().nullable()).nullable(),
});

/** One row of the aggregate: kind 'g' counts copies per grade; kind 'a' counts a numeric answer text per version. */
const aggregateRow = z.object({
  kind: z.enum(['g', 'a']),
  exercise_id: z.string(),
  version: z.number().nullable(),
  value: z.string().nullable(),
  n: column.number,
  answered: column.number,
});

/**
 * The version a pupil got, as exercises/versions.ts picks it (the first 4 bytes of
 * sha256(user \0 exercise), big-endian, modulo the number of versions), computed in SQL so that the
 * answers are grouped per version in the database instead of travelling one row per pupil.
 */
const versionSql = sql`(('x' || substr(encode(sha256(convert_to(cur.user_id::text, 'UTF8') || '\\x00'::bytea || convert_to(cur.exercise_id::text, 'UTF8')), 'hex'), 1, 8))::bit(32)::bigint % ex.nv)::int`;

/**
 * The one aggregate query of a chapter's statistics (decision 75): the current answer of each pupil per
 * exercise read from answers_current_idx (DISTINCT ON in index order, as the grading table does),
 * grouped per grade, and per version and answer text for numeric exercises. Its size is the number of
 * distinct grades and answers, not of pupils (bench figure in decision 75).
 */
function aggregate(db: Db, chapterId: string) {
  return rows(
    db,
    aggregateRow,
    sql`
    WITH ex AS (
      SELECT e.id, e.answer_format, (SELECT count(*) FROM statement_versions v WHERE v.exercise_id = e.id)::int AS nv
      FROM exercises e WHERE e.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL AND e.answer_format <> 'none'
    ), cur AS (
      SELECT DISTINCT ON (a.exercise_id, a.user_id) a.exercise_id, a.user_id, a.answer, a.grade
      FROM answers a
      WHERE a.exercise_id IN (SELECT id FROM ex) AND a.withdrawn_at IS NULL
      ORDER BY a.exercise_id, a.user_id, a.seq DESC, a.created_at DESC
    )
    SELECT 'g' AS kind, cur.exercise_id, NULL::int AS version, cur.grade AS value, count(*)::int AS n,
      count(*) FILTER (WHERE btrim(cur.answer) <> '')::int AS answered
    FROM cur GROUP BY cur.exercise_id, cur.grade
    UNION ALL
    SELECT 'a', cur.exercise_id, ${versionSql}, btrim(cur.answer), count(*)::int, 0
    FROM cur JOIN ex ON ex.id = cur.exercise_id
    WHERE ex.answer_format = 'numeric' AND ex.nv > 0 AND btrim(cur.answer) <> ''
    GROUP BY 2, 3, 4`,
  );
}

/** The median of a distribution given as sorted (value, count) pairs. */
export function medianOf(distribution: ReadonlyArray<{ grade: number; count: number }>): number | null {
  const total = distribution.reduce((s, d) => s + d.count, 0);
  if (total === 0) return null;
  const at = (k: number) => {
    let seen = 0;
    for (const d of distribution) {
      seen += d.count;
      if (k < seen) return d.grade;
    }
    return distribution[distribution.length - 1].grade;
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

/**
 * Per version, answers grouped by value (« 3,5 » and « 3.5 » are one answer; text that is no number
 * stays as typed), the TOP_ANSWERS most frequent, and the errata flag: a wrong answer given by more
 * pupils than the expected one.
 */
export function versionStats(
  expected: ReadonlyArray<string | null>,
  answers: ReadonlyArray<{ version: number; text: string; n: number }>,
): VersionStats[] {
  return expected.map((want, version) => {
    const wanted = want === null ? null : parseNumericAnswerText(want);
    const groups = new Map<string, { answer: string; count: number; best: number; expected: boolean }>();
    let pupils = 0;
    for (const a of answers) {
      if (a.version !== version) continue;
      pupils += a.n;
      const parsed = parseNumericAnswerText(a.text);
      const key = parsed.ok ? `#${parsed.canonical}` : `"${a.text}`;
      const group = groups.get(key) ?? {
        answer: a.text,
        count: 0,
        best: 0,
        expected: !!(parsed.ok && wanted?.ok && sameNumber(parsed.value, wanted.value)),
      };
      group.count += a.n;
      // The group is shown as most of its pupils wrote it.
      if (a.n > group.best) Object.assign(group, { answer: a.text, best: a.n });
      groups.set(key, group);
    }
    const sorted = [...groups.values()].sort((x, y) => y.count - x.count || x.answer.localeCompare(y.answer, 'fr'));
    const right = sorted.find((g) => g.expected)?.count ?? 0;
    const flagged = wanted?.ok === true && sorted.some((g) => !g.expected && g.count > right);
    const top: FrequentAnswer[] = sorted.slice(0, TOP_ANSWERS).map((g) => ({ answer: g.answer, count: g.count, expected: g.expected }));
    return { version, expected: want, pupils, top, flagged };
  });
}

const bankUsesShape = z.object({
  exercise_id: z.string(),
  id: z.string(),
  text: z.string(),
  archived: z.boolean(),
  uses: column.number,
});

/**
 * Decision 160: per exercise of the chapter, its bank remarks and the gradings that applied each, most used first; a
 * retired remark only while some grading applied it.
 */
async function bankUses(db: Db, chapterId: string): Promise<Map<string, BankCommentUses[]>> {
  const found = await rows(
    db,
    bankUsesShape,
    sql`SELECT * FROM (
          SELECT cb.exercise_id, cb.id, cb.text, cb.archived_at IS NOT NULL AS archived, cb.position, cb.created_at,
            (SELECT count(*) FROM gradings g WHERE g.exercise_id = cb.exercise_id AND cb.id = ANY(g.bank_comments))::int AS uses
          FROM comment_bank cb JOIN exercises e ON e.id = cb.exercise_id
          WHERE e.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL) b
        WHERE NOT b.archived OR b.uses > 0
        ORDER BY b.uses DESC, b.position, b.created_at, b.id`,
  );
  const byExercise = new Map<string, BankCommentUses[]>();
  for (const r of found) {
    byExercise.set(r.exercise_id, [
      ...(byExercise.get(r.exercise_id) ?? []),
      { _id: r.id, text: r.text, uses: r.uses, archived: r.archived },
    ]);
  }
  return byExercise;
}

/** GET /stats/{chapterId} (correctors and admins): per answerable exercise, in table order. */
export async function getChapterStats(db: Db, chapterId: string): Promise<ChapterStats> {
  const chapter = await findChapter(db, chapterId);
  const [exercises, aggregateRows, remarks] = await Promise.all([
    rows(
      db,
      exerciseRow,
      sql`SELECT e.id, e.title, e.answer_format, e.max_points,
            array_agg(v.answer ORDER BY v.position, v.id) FILTER (WHERE v.id IS NOT NULL) AS expected
          FROM exercises e LEFT JOIN statement_versions v ON v.exercise_id = e.id
          WHERE e.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL AND e.answer_format <> 'none'
          GROUP BY e.id ORDER BY e.position, e.created_at, e.id`,
    ),
    aggregate(db, chapterId),
    bankUses(db, chapterId),
  ]);
  return {
    chapter: { _id: chapter.id, title: chapter.title },
    exercises: exercises.map((e): ExerciseStats => {
      const mine = aggregateRows.filter((r) => r.exercise_id === e.id);
      const grades = mine.filter((r) => r.kind === 'g');
      const counts = new Map<number, number>();
      for (const g of grades) {
        const value = g.value === null ? null : cellNumber(g.value);
        if (value !== null) counts.set(value, (counts.get(value) ?? 0) + Number(g.n));
      }
      const distribution = [...counts].sort(([a], [b]) => a - b).map(([grade, count]) => ({ grade, count }));
      const graded = distribution.reduce((s, d) => s + d.count, 0);
      const sum = distribution.reduce((s, d) => s + d.grade * d.count, 0);
      const answers = mine.filter((r) => r.kind === 'a').map((r) => ({ version: Number(r.version), text: r.value ?? '', n: Number(r.n) }));
      return {
        _id: e.id,
        title: e.title,
        answerFormat: e.answer_format,
        maxPoints: e.max_points,
        answered: grades.reduce((s, g) => s + Number(g.answered), 0),
        graded,
        mean: graded === 0 ? null : Math.round((sum / graded) * 100) / 100,
        median: medianOf(distribution),
        distribution,
        versions: e.answer_format === 'numeric' ? versionStats(e.expected ?? [], answers) : [],
        bankComments: remarks.get(e.id) ?? [],
      };
    }),
  };
}

/**
 * POST /stats/{chapterId}/errata (admins): one version's expected answer changes and the automatic
 * correction runs again for that version's pupils, in one transaction (grading/service.ts: never over a
 * corrector's grade). Audited with the old and new answer.
 */
export async function applyErrata(db: Db, auth: AuthContext, chapterId: string, input: Errata): Promise<ErrataResult> {
  if (parseDecimal(input.answer) === null) throw badRequest('La réponse attendue n’est pas un nombre.');
  await findChapter(db, chapterId);
  return db.transaction(async (tx) => {
    const version = await one(
      tx,
      z.object({ id: z.string(), answer: z.string().nullable(), answer_format: z.string() }),
      sql`SELECT v.id, v.answer, e.answer_format FROM exercises e
          JOIN statement_versions v ON v.exercise_id = e.id
          WHERE e.id = ${input.exerciseId}::uuid AND e.chapter_id = ${chapterId}::uuid AND e.deleted_at IS NULL
          ORDER BY v.position, v.id OFFSET ${input.version} LIMIT 1
          FOR UPDATE OF v`,
    );
    if (!version) throw notFound('Version introuvable dans ce chapitre.');
    if (version.answer_format !== 'numeric') throw badRequest('Seul un exercice numérique a une réponse attendue.');
    await tx.execute(sql`UPDATE statement_versions SET answer = ${input.answer} WHERE id = ${version.id}::uuid`);
    const result = await autoCorrectChapter(tx, auth, chapterId, { exerciseId: input.exerciseId, version: input.version });
    await audit(tx, auth, 'stats.errata', input.exerciseId, {
      version: input.version,
      oldAnswer: version.answer,
      newAnswer: input.answer,
      graded: result.graded,
    });
    const copies = result.graded > 1 ? 'copies notées à nouveau' : 'copie notée à nouveau';
    return {
      message: `Réponse attendue de la version ${input.version + 1} : ${input.answer.replace('.', ',')}. ${result.graded} ${copies}.`,
      graded: result.graded,
    };
  });
}
