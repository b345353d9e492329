import type { RelabelResult } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { badRequest, conflict, notFound } from '../errors.js';

const RELABEL_GRADED_MESSAGE =
  'Copie remise au triage. Sa note est conservée : elle lui sera rendue si ses pages reviennent à cet élève pour cet exercice.';

/**
 * POST /answer/relabel/ (admins; docs/product.md#design-3 Sorting): the PDF of an answer becomes an unlabelled
 * copy of the chapter again, filed under the pupil's institution, and the answer is withdrawn (it
 * leaves the grading table; its history row stays for the record). One transaction. Decision 139: a
 * graded copy keeps its grade, gradings and comment on its row, is flagged and audited; sorted back to its
 * pupil and exercise, it comes back with them (sorting/graded-copies.ts).
 */
export async function relabelAnswer(db: Db, auth: AuthContext, answerId: string): Promise<RelabelResult> {
  return db.transaction(async (tx) => {
    const [answer] = await rows(
      tx,
      z.object({
        id: z.string(),
        file_id: z.string().nullable(),
        withdrawn: z.boolean(),
        answer_format: z.string(),
        chapter_id: z.string(),
        institution_id: z.string().nullable(),
        user_id: z.string(),
        exercise_id: z.string(),
        grade: z.string().nullable(),
        grade_comment: z.string().nullable(),
        gradings: column.number,
      }),
      sql`SELECT a.id, a.file_id, a.withdrawn_at IS NOT NULL AS withdrawn, e.answer_format, e.chapter_id, u.institution_id,
            a.user_id, a.exercise_id, a.grade, a.grade_comment, (SELECT count(*)::int FROM gradings g WHERE g.answer_id = a.id) AS gradings
          FROM answers a JOIN exercises e ON e.id = a.exercise_id JOIN chapters c ON c.id = e.chapter_id JOIN users u ON u.id = a.user_id
          WHERE a.id = ${answerId}::uuid AND e.deleted_at IS NULL AND c.deleted_at IS NULL
          FOR UPDATE OF a`,
    );
    if (!answer) throw notFound('Copie introuvable.');
    if (answer.answer_format !== 'pdf' || !answer.file_id) throw badRequest('Seule une copie PDF peut être remise au triage.');
    if (answer.withdrawn) throw conflict('Cette copie a déjà été remise au triage.');
    // A file is filed once (unlabeled_file_uq): a scan sorted before and now sent back is filed again.
    const [copy] = await rows(
      tx,
      z.object({ id: z.string() }),
      sql`INSERT INTO unlabeled_answers (chapter_id, file_id, institution_id, uploaded_by)
          VALUES (${answer.chapter_id}::uuid, ${answer.file_id}::uuid, ${answer.institution_id}::uuid, ${auth.userId}::uuid)
          ON CONFLICT (file_id) DO UPDATE SET
            chapter_id = excluded.chapter_id, institution_id = excluded.institution_id, uploaded_by = excluded.uploaded_by,
            created_at = now(), labeled_at = NULL, labeled_by = NULL, reserved_by = NULL, reserved_at = NULL, suggestions = NULL
          RETURNING id`,
    );
    const graded = answer.grade !== null || Number(answer.gradings) > 0;
    await tx.execute(
      sql`UPDATE answers SET withdrawn_at = now(), pages_added_at = ${graded ? sql`now()` : sql`pages_added_at`} WHERE id = ${answerId}::uuid`,
    );
    await audit(tx, auth, 'sorting.relabel', answerId, {
      scan: copy.id,
      file: answer.file_id,
      user: answer.user_id,
      exercise: answer.exercise_id,
      grade: answer.grade,
      gradeComment: answer.grade_comment,
      gradings: Number(answer.gradings),
    });
    return { message: graded ? RELABEL_GRADED_MESSAGE : 'Copie remise au triage.', _id: copy.id };
  });
}
