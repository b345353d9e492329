import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Tx } from '../db/client.js';
import { column, rows } from '../db/query.js';
import { conflict } from '../errors.js';
import type { FileStore } from '../files/store.js';
import { appendPages } from './split.js';

/**
 * Decision 139: sorting never loses a grade. Pages sorted to a pupil and exercise whose copy is already
 * graded (a grade, or gradings of a double correction) are added to that copy: same answer row, so its
 * grade, gradings, comment, ticked items and history stay; the copy is flagged to its correctors
 * (`pages_added_at`). A graded copy sent back to sorting (relabel.ts) whose pages come back to its pupil
 * and exercise is put back with those pages, grade kept, flagged too.
 */

/** What a part of the scan does to a graded copy: `append` to the current one, `restore` one sent back to sorting. */
export interface GradedTarget {
  kind: 'append' | 'restore';
  answerId: string;
  fileId: string | null;
  grade: string | null;
  gradeComment: string | null;
  gradings: number;
}

const targetRow = z.object({
  kind: z.enum(['append', 'restore']),
  id: z.string(),
  user_id: z.string(),
  exercise_id: z.string(),
  file_id: z.string().nullable(),
  grade: z.string().nullable(),
  grade_comment: z.string().nullable(),
  gradings: column.number,
});

export const pairKey = (user: string, exercise: string) => `${user}|${exercise}`;

const pairValues = (pairs: ReadonlyArray<{ user: string; exercise: string }>) =>
  sql.join(
    pairs.map((p) => sql`(${p.user}::uuid, ${p.exercise}::uuid)`),
    sql`, `,
  );

/** A copy holds a grade: a grade on the row, or a grading of either corrector (double correction). */
const holdsGrade = sql`(a.grade IS NOT NULL OR EXISTS (SELECT 1 FROM gradings g WHERE g.answer_id = a.id))`;

/**
 * Per (pupil, exercise) of the parts, the graded copy the pages go to: the current copy when it holds a
 * grade, else a graded copy of this very file sent back to sorting (withdrawn). `lock`: under the rows'
 * locks, in the labelling transaction, to check nothing changed since the PDFs were written.
 */
export async function findGradedTargets(
  db: Tx,
  scanFileId: string,
  pairs: ReadonlyArray<{ user: string; exercise: string }>,
  lock = false,
): Promise<Map<string, GradedTarget>> {
  if (pairs.length === 0) return new Map();
  const found = await rows(
    db,
    targetRow,
    sql`
    WITH pairs(u, e) AS (VALUES ${pairValues(pairs)}),
    current AS (
      SELECT 'append' AS kind, c.id, p.u AS user_id, p.e AS exercise_id
      FROM pairs p CROSS JOIN LATERAL (
        SELECT a.id FROM answers a WHERE a.user_id = p.u AND a.exercise_id = p.e AND a.withdrawn_at IS NULL
        ORDER BY a.seq DESC, a.created_at DESC, a.id DESC LIMIT 1) c
    ),
    sent_back AS (
      SELECT 'restore' AS kind, a.id, a.user_id, a.exercise_id
      FROM pairs p JOIN answers a ON a.user_id = p.u AND a.exercise_id = p.e
      WHERE a.withdrawn_at IS NOT NULL AND a.file_id = ${scanFileId}::uuid
    )
    SELECT t.kind, a.id, a.user_id, a.exercise_id, a.file_id, a.grade, a.grade_comment,
      (SELECT count(*)::int FROM gradings g WHERE g.answer_id = a.id) AS gradings
    FROM (SELECT * FROM current UNION ALL SELECT * FROM sent_back) t JOIN answers a ON a.id = t.id
    WHERE ${holdsGrade}
    ORDER BY a.id
    ${lock ? sql`FOR UPDATE OF a` : sql``}`,
  );
  const out = new Map<string, GradedTarget>();
  // The current graded copy wins over one sent back: the pages join the copy the correctors see.
  for (const kind of ['append', 'restore'] as const) {
    for (const r of found.filter((f) => f.kind === kind)) {
      const key = pairKey(r.user_id, r.exercise_id);
      if (out.has(key)) continue;
      out.set(key, {
        kind,
        answerId: r.id,
        fileId: r.file_id,
        grade: r.grade,
        gradeComment: r.grade_comment,
        gradings: Number(r.gradings),
      });
    }
  }
  return out;
}

/**
 * The PDF a graded copy gets: its own pages, then the sorted ones (`append`); the sorted ones alone for a
 * copy put back (`restore`: its pages are what the sorter gave back) or when its file is missing.
 */
export async function pagesForTarget(
  store: FileStore,
  target: GradedTarget,
  part: Uint8Array,
): Promise<{ bytes: Buffer; pages: number } | null> {
  if (target.kind !== 'append' || !target.fileId) return null;
  const own = await store.get(target.fileId);
  if (!own) return null;
  return appendPages(own, part);
}

/** The same targets under lock, or a French 409: a corrector or another sorter changed one meanwhile. */
export async function checkTargetsUnchanged(
  tx: Tx,
  scanFileId: string,
  pairs: ReadonlyArray<{ user: string; exercise: string }>,
  planned: Map<string, GradedTarget>,
) {
  const now = await findGradedTargets(tx, scanFileId, pairs, true);
  const same =
    now.size === planned.size &&
    [...planned].every(([key, t]) => {
      const n = now.get(key);
      return n !== undefined && n.kind === t.kind && n.answerId === t.answerId && n.fileId === t.fileId;
    });
  if (!same) throw conflict('Une copie de ces élèves a changé pendant le tri : validez le tri de nouveau.');
}

/**
 * Writes the new PDF on the graded copy, keeps its grade and flags it; a copy sent back to sorting comes
 * back as its pupil's current copy (seq above theirs). Audited with the grade kept.
 */
export async function keepGradedCopy(
  tx: Tx,
  auth: AuthContext,
  target: GradedTarget,
  change: { copyId: string; fileId: string; pages: number[]; seq: number },
): Promise<void> {
  const path = `pdfs/${change.fileId}.pdf`;
  if (target.kind === 'append') {
    await tx.execute(
      sql`UPDATE answers SET file_id = ${change.fileId}::uuid, answer = ${path}, pages_added_at = now() WHERE id = ${target.answerId}::uuid`,
    );
  } else {
    await tx.execute(sql`
      UPDATE answers a SET file_id = ${change.fileId}::uuid, answer = ${path}, pages_added_at = now(), withdrawn_at = NULL,
        seq = GREATEST(${change.seq}::bigint, (SELECT max(b.seq) + 1 FROM answers b WHERE b.user_id = a.user_id AND b.exercise_id = a.exercise_id))
      WHERE a.id = ${target.answerId}::uuid`);
  }
  await audit(tx, auth, target.kind === 'append' ? 'sorting.pages_added' : 'sorting.graded_copy_restored', target.answerId, {
    scan: change.copyId,
    scanPages: change.pages,
    oldFile: target.fileId,
    newFile: change.fileId,
    grade: target.grade,
    gradeComment: target.gradeComment,
    gradings: target.gradings,
  });
}
