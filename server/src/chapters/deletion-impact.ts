import type { DeletionImpact } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { column, one } from '../db/query.js';
import { notFound } from '../errors.js';
import { findChapter } from './service.js';

/** What deleting a chapter takes with it (decision 69: the dialog says it before). */
export async function chapterDeletionImpact(db: Db, chapterId: string): Promise<DeletionImpact> {
  await findChapter(db, chapterId);
  return impactOf(db, sql`e.chapter_id = ${chapterId}::uuid`);
}

/** What deleting an exercise takes with it. */
export async function exerciseDeletionImpact(db: Db, exerciseId: string): Promise<DeletionImpact> {
  const found = await one(
    db,
    z.object({ id: z.string() }),
    sql`SELECT id FROM exercises WHERE id = ${exerciseId}::uuid AND deleted_at IS NULL`,
  );
  if (!found) throw notFound('Exercice introuvable.');
  return impactOf(db, sql`e.id = ${exerciseId}::uuid`);
}

async function impactOf(db: Db, where: ReturnType<typeof sql>): Promise<DeletionImpact> {
  const row = await one(
    db,
    z.object({ exercises: column.number, pupils: column.number, answers: column.number, grades: column.number }),
    sql`SELECT (SELECT count(*)::int FROM exercises e WHERE ${where} AND e.deleted_at IS NULL) AS exercises,
          count(DISTINCT a.user_id)::int AS pupils,
          count(DISTINCT (a.user_id, a.exercise_id))::int AS answers,
          count(DISTINCT (a.user_id, a.exercise_id)) FILTER (WHERE a.grade IS NOT NULL)::int AS grades
        FROM answers a JOIN exercises e ON e.id = a.exercise_id WHERE ${where} AND e.deleted_at IS NULL AND a.withdrawn_at IS NULL`,
  );
  return {
    exercises: Number(row?.exercises ?? 0),
    pupils: Number(row?.pupils ?? 0),
    answers: Number(row?.answers ?? 0),
    grades: Number(row?.grades ?? 0),
  };
}
