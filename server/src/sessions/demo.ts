import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { answers, exercises } from '../db/schema.js';

/**
 * Demonstration data for grading screens: a numeric answer from each given pupil to each numeric
 * exercise of the chapter, with a second, later save on every other exercise (a history of two
 * rows). Values are deterministic so screenshots stay stable. Returns the number of rows written.
 */
export async function seedAnswersDemo(db: Db, { pupilIds, chapterId }: { pupilIds: string[]; chapterId: string }): Promise<number> {
  const numeric = await db
    .select({ id: exercises.id })
    .from(exercises)
    .where(and(eq(exercises.chapterId, chapterId), eq(exercises.answerFormat, 'numeric')))
    .orderBy(asc(exercises.position));
  if (numeric.length === 0 || pupilIds.length === 0) return 0;
  const base = Date.now() - 3600_000;
  const rows: Array<typeof answers.$inferInsert> = [];
  pupilIds.forEach((userId, i) => {
    numeric.forEach(({ id: exerciseId }, j) => {
      const first = String((i * 7 + j * 3) % 20);
      rows.push({
        userId,
        exerciseId,
        answer: first,
        seq: base + j * 1000,
        ip: `10.0.0.${(i % 3) + 1}`,
        createdAt: new Date(base + j * 60_000),
      });
      if ((i + j) % 2 === 0) {
        const second = `${(i + j) % 10},5`;
        rows.push({
          userId,
          exerciseId,
          answer: second,
          seq: base + j * 1000 + 500,
          ip: `10.0.0.${(i % 3) + 1}`,
          createdAt: new Date(base + j * 60_000 + 30_000),
        });
      }
    });
  });
  await db.insert(answers).values(rows);
  return rows.length;
}
