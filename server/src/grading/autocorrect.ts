import { parseNumericAnswerText, sameNumber, type AutoCorrectionResult } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Db, Tx } from '../db/client.js';
import { column, one, rows } from '../db/query.js';
import { pickVersionIndex } from '../exercises/versions.js';
import { loadChapter, uuidArray } from './queries.js';

/**
 * docs/product.md#design-3 Auto-correction: the pupil's latest answer against their version's expected answer,
 * compared as exact numbers with the parser the answer field and the save route use (contract
 * numeric.ts): comma or dot, a leading minus (`-` or `−`), spaces between thousands, `a/b`.
 * Returns the value's canonical text (`0,5`, `-3`, `1/3`), one per value, or null when the text is
 * not a number (such an answer is wrong).
 */
export function parseNumericAnswer(text: string): string | null {
  const parsed = parseNumericAnswerText(text);
  return parsed.ok ? parsed.canonical : null;
}

/** '1' correct, '0' wrong, null when there is nothing to grade (empty answer, or no expected answer). */
export function autoGrade(answer: string, expected: string | null): '1' | '0' | null {
  if (answer.trim() === '') return null;
  const want = expected === null ? null : parseNumericAnswerText(expected);
  if (!want?.ok) return null;
  const got = parseNumericAnswerText(answer);
  return got.ok && sameNumber(got.value, want.value) ? '1' : '0';
}

/** Which versions « Correction automatique » covers: a whole chapter, or one version of one exercise (errata). */
type AutoScope = { exerciseId: string; version: number } | undefined;

const expectedShape = z.object({ exercise_id: z.string(), answers: z.array(z.string().nullable()), max_points: column.number });
const candidateShape = z.object({
  id: z.string(),
  user_id: z.string(),
  exercise_id: z.string(),
  answer: z.string(),
  grade: z.string().nullable(),
});

/** What « Correction automatique » would write now (null: no numeric exercise); the run and its count share it. */
async function planAutoCorrection(db: Tx, chapterId: string, only?: AutoScope) {
  await loadChapter(db, chapterId);
  const versions = await rows(
    db,
    expectedShape,
    sql`SELECT e.id AS exercise_id, array_agg(v.answer ORDER BY v.position, v.id) AS answers, e.max_points
        FROM exercises e JOIN statement_versions v ON v.exercise_id = e.id
        WHERE e.chapter_id = ${chapterId}::uuid AND e.answer_format = 'numeric' AND e.deleted_at IS NULL
          ${only ? sql`AND e.id = ${only.exerciseId}::uuid` : sql``}
        GROUP BY e.id`,
  );
  const expectedOf = new Map(versions.map((v) => [v.exercise_id, v.answers]));
  const maxOf = new Map(versions.map((v) => [v.exercise_id, v.max_points]));
  if (expectedOf.size === 0) return null;
  const current = await rows(
    db,
    candidateShape,
    sql`
    SELECT id, user_id, exercise_id, answer, grade FROM (
      SELECT DISTINCT ON (a.user_id, a.exercise_id) a.id, a.user_id, a.exercise_id, a.answer, a.grade, a.grader_id
      FROM answers a
      WHERE a.exercise_id = ANY(${uuidArray([...expectedOf.keys()])}) AND a.withdrawn_at IS NULL
      ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC
    ) cur
    WHERE cur.grade IS NULL OR cur.grader_id IS NULL`,
  );
  const changes: Array<{ id: string; old: string | null; new: string }> = [];
  let considered = 0;
  for (const a of current) {
    const answers = expectedOf.get(a.exercise_id)!;
    const version = pickVersionIndex(a.user_id, a.exercise_id, answers.length);
    if (only && version !== only.version) continue;
    considered++;
    const expected = answers[version] ?? null;
    // Decision 61: a right answer is worth the exercise's maxPoints.
    const right = autoGrade(a.answer, expected);
    const grade = right === null ? null : right === '1' ? String(maxOf.get(a.exercise_id)!) : '0';
    if (grade !== null && grade !== a.grade) changes.push({ id: a.id, old: a.grade, new: grade });
  }
  return { changes, considered };
}

/** GET /answer/auto/{chapterId}/count (decision 69): how many copies a run would grade, for the confirmation dialog. */
export async function countAutoCorrection(db: Db, chapterId: string): Promise<{ count: number }> {
  return { count: (await planAutoCorrection(db, chapterId))?.changes.length ?? 0 };
}

const AUTO_BATCH = 5_000;

/**
 * POST /answer/auto/{chapterId} (docs/product.md#design-3 Auto-correction): every numeric exercise's current
 * answer against the pupil's version's expected answer: maxPoints correct (decision 61), 0 wrong, empty untouched.
 * Never overwrites a person's grade: only ungraded answers and earlier automatic grades (grader
 * null) are written, and the UPDATE re-checks it, so a corrector saving meanwhile wins. Each
 * change is audited under the admin who ran it. `only` limits it to the pupils of one version of one
 * exercise (decision 75, errata: that version's expected answer was corrected).
 */
export async function autoCorrectChapter(db: Tx, auth: AuthContext, chapterId: string, only?: AutoScope): Promise<AutoCorrectionResult> {
  const plan = await planAutoCorrection(db, chapterId, only);
  if (!plan) return { message: 'Correction automatique : ce chapitre n’a pas d’exercice numérique.', graded: 0, unchanged: 0 };
  const { changes, considered } = plan;
  const now = new Date().toISOString();
  let graded = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < changes.length; i += AUTO_BATCH) {
      const batch = JSON.stringify(changes.slice(i, i + AUTO_BATCH));
      const res = await one(
        tx,
        z.object({ n: column.number }),
        sql`
        WITH v AS (SELECT * FROM json_to_recordset(${batch}::json) AS v(id uuid, old text, new text)),
        upd AS (
          UPDATE answers a SET grade = v.new, grader_id = NULL, grade_timestamp = ${now}::timestamptz
          FROM v
          WHERE a.id = v.id AND a.grade IS NOT DISTINCT FROM v.old AND (a.grade IS NULL OR a.grader_id IS NULL)
          RETURNING a.id, v.old, v.new, a.grade_comment, a.hidden
        ), ins AS (
          INSERT INTO grade_audit (answer_id, grader_id, old_grade, new_grade, old_comment, new_comment, hidden)
          SELECT id, ${auth.userId}::uuid, old, new, grade_comment, grade_comment, hidden FROM upd
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM ins`,
      );
      graded += res!.n;
    }
  });
  const copies = graded > 1 ? 'copies notées' : 'copie notée';
  return { message: `Correction automatique terminée : ${graded} ${copies}.`, graded, unchanged: considered - graded };
}
