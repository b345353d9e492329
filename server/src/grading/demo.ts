import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { one } from '../db/query.js';

/**
 * Demonstration grades (call after the demo answers exist): of the chapter's current non-empty
 * answers, about half get a number, one in six an X, the rest stay ungraded, so the grading
 * table shows green, gray and red cells. Each grade is audited under the grader.
 */
export async function seedGradingDemo(db: Db, opts: { chapterId: string; graderId: string }): Promise<{ graded: number }> {
  const row = await one<{ graded: number }>(db, sql`
    WITH cur AS (
      SELECT DISTINCT ON (a.user_id, a.exercise_id) a.id, a.answer
      FROM answers a JOIN exercises e ON e.id = a.exercise_id
      WHERE e.chapter_id = ${opts.chapterId}::uuid AND a.withdrawn_at IS NULL
      ORDER BY a.user_id, a.exercise_id, a.seq DESC, a.created_at DESC
    ), picked AS (
      SELECT id, row_number() OVER (ORDER BY id) AS n FROM cur WHERE btrim(answer) <> ''
    ), graded AS (
      SELECT id, CASE WHEN n % 6 = 0 THEN 'X' ELSE ((n * 7) % 8)::text END AS grade,
        CASE WHEN n % 6 = 0 THEN 'Copie blanche.' WHEN n % 3 = 0 THEN 'Raisonnement juste, **calcul** à vérifier : $x^2 = 4$.' ELSE '' END AS comment
      FROM picked WHERE n % 6 <> 1 AND n % 6 <> 4
    ), upd AS (
      UPDATE answers a SET grade = g.grade, grade_comment = g.comment, grader_id = ${opts.graderId}::uuid,
        grade_timestamp = date_trunc('milliseconds', now())
      FROM graded g WHERE a.id = g.id
      RETURNING a.id, a.grade, a.grade_comment
    ), ins AS (
      INSERT INTO grade_audit (answer_id, grader_id, old_grade, new_grade, old_comment, new_comment, hidden)
      SELECT id, ${opts.graderId}::uuid, NULL, grade, NULL, grade_comment, false FROM upd
      RETURNING 1
    )
    SELECT count(*)::int AS graded FROM ins`);
  return { graded: Number(row?.graded ?? 0) };
}
