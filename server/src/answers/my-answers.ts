import type { MyAnswer } from '@olympe/contract';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import type { Db } from '../db/client.js';
import { answers, exercises } from '../db/schema.js';
import { loadChapterContext } from '../sessions/service.js';
import { presentMyAnswer } from './presenters.js';

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
    .where(
      and(eq(exercises.chapterId, chapterId), isNull(exercises.deletedAt), eq(answers.userId, auth.userId), isNull(answers.withdrawnAt)),
    )
    .orderBy(answers.exerciseId, desc(answers.seq), desc(answers.createdAt));
  return rows.map((r) => presentMyAnswer(r, ctx.chapter.analysis));
}
