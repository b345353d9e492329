import { randomUUID } from 'node:crypto';
import type { SchemeItem } from '@olympe/contract';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, one } from '../db/query.js';
import { answers, chapters, exercises, files, gradeAudit, gradingAssignments, gradings } from '../db/schema.js';
import type { FileStore } from '../files/store.js';
import { makeSampleScan } from '../sorting/sample-scan.js';

/**
 * Demonstration grades (call after the demo answers exist): of the chapter's current non-empty
 * answers, about half get a number, one in six an X, the rest stay ungraded, so the grading
 * table shows green, gray and red cells. Each grade is audited under the grader.
 */
export async function seedGradingDemo(db: Db, opts: { chapterId: string; graderId: string }): Promise<{ graded: number }> {
  const row = await one(
    db,
    z.object({ graded: column.number }),
    sql`
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
    ), own AS (
      INSERT INTO gradings (answer_id, exercise_id, grader_id, grade, grade_comment)
      SELECT u.id, a.exercise_id, ${opts.graderId}::uuid, u.grade, u.grade_comment FROM upd u JOIN answers a ON a.id = u.id
      RETURNING 1
    )
    SELECT count(*)::int AS graded FROM ins`,
  );
  return { graded: row?.graded ?? 0 };
}

/** Olympiad-style marking scheme of the demo's paper exercises (7 points each). */
const DEMO_SCHEMES: Array<Array<{ text: string; points: number }>> = [
  [
    { text: 'Réduction : $n^2 + 1$ divise $n + 3$', points: 2 },
    { text: 'Majoration et cas finis', points: 3 },
    { text: 'Vérification des solutions', points: 2 },
  ],
  [
    { text: 'Figure et rayon $AB = 1$', points: 2 },
    { text: 'Aire du quart de disque : $\\pi/4$', points: 5 },
  ],
];

/**
 * Decisions 62 and 63 in the demo: the paper chapter is graded blind and twice (anonymous, double correction,
 * tolerance 1 point), each exercise out of 7 with a marking scheme. Pupils' scanned copies are filed;
 * on the first exercise one copy is settled by the mean, one awaits arbitration (2 vs 6), one has its
 * first grading only; the second exercise is assigned to the second corrector.
 */
export async function seedDoubleGradingDemo(
  db: Db,
  store: FileStore,
  opts: { chapterId: string; exerciseIds: string[]; pupilIds: string[]; correctorIds: [string, string] },
): Promise<void> {
  await db
    .update(chapters)
    .set({ anonymousGrading: true, doubleGrading: true, gradingTolerance: 1 })
    .where(eq(chapters.id, opts.chapterId));
  const schemes: SchemeItem[][] = [];
  for (const [i, exerciseId] of opts.exerciseIds.entries()) {
    const items = (DEMO_SCHEMES[i] ?? []).map((item) => ({ id: randomUUID(), ...item }));
    schemes.push(items);
    await db.update(exercises).set({ maxPoints: 7, schemeItems: items }).where(eq(exercises.id, exerciseId));
  }
  const copies: Array<Array<{ answerId: string }>> = opts.exerciseIds.map(() => []);
  for (const [p, userId] of opts.pupilIds.entries()) {
    for (const [e, exerciseId] of opts.exerciseIds.entries()) {
      const bytes = await makeSampleScan([{ text: `Copie — exercice ${e + 1}` }]);
      const fileId = randomUUID();
      await store.put(fileId, bytes);
      await db
        .insert(files)
        .values({ id: fileId, ownerId: opts.correctorIds[0], originalName: `copie-${p + 1}-${e + 1}.pdf`, size: bytes.length, pages: 1 });
      const [row] = await db
        .insert(answers)
        .values({ userId, exerciseId, answer: `pdfs/${fileId}.pdf`, fileId })
        .returning({ id: answers.id });
      copies[e].push({ answerId: row.id });
    }
  }
  const [first, second] = opts.correctorIds;
  const exerciseId = opts.exerciseIds[0];
  const [a, b, c] = schemes[0];
  const grading = (answerId: string, graderId: string, grade: string, items: SchemeItem[], comment = '') => ({
    answerId,
    exerciseId,
    graderId,
    grade,
    gradeComment: comment,
    items: items.map((i) => i.id),
  });
  const [settled, disputed, partial] = copies[0];
  await db
    .insert(gradings)
    .values([
      grading(settled.answerId, first, '7', [a, b, c], 'Solution complète.'),
      grading(settled.answerId, second, '6', [b, c], 'La réduction n’est pas justifiée.'),
      grading(disputed.answerId, first, '2', [a]),
      grading(disputed.answerId, second, '6', [b, c], 'Idée juste, majoration correcte.'),
      grading(partial.answerId, first, '5', [a, b]),
    ]);
  await db
    .update(answers)
    .set({
      grade: '6.5',
      gradeComment: 'Solution complète.\n\nLa réduction n’est pas justifiée.',
      graderId: second,
      gradeTimestamp: new Date(),
    })
    .where(eq(answers.id, settled.answerId));
  await db.insert(gradeAudit).values([
    { answerId: settled.answerId, graderId: first, newGrade: '7', kind: 'grading' },
    { answerId: settled.answerId, graderId: second, newGrade: '6', kind: 'grading' },
    { answerId: settled.answerId, graderId: second, newGrade: '6.5', kind: 'grade' },
    { answerId: disputed.answerId, graderId: first, newGrade: '2', kind: 'grading' },
    { answerId: disputed.answerId, graderId: second, newGrade: '6', kind: 'grading' },
    { answerId: partial.answerId, graderId: first, newGrade: '5', kind: 'grading' },
  ]);
  if (opts.exerciseIds[1]) await db.insert(gradingAssignments).values({ exerciseId: opts.exerciseIds[1], userId: second });
}
