import type { Assignments, AssignmentsSave } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db, Tx } from '../db/client.js';
import { one, rows } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { presentAssignments } from './presenters.js';
import { CHAPTER_NOT_FOUND, uuidArray } from './queries.js';

/** Dividing the work (decision 64): which correctors grade which exercise of a chapter. */

async function chapterExercises(db: Db, chapterId: string) {
  const chapter = await one(
    db,
    z.object({ id: z.string() }),
    sql`SELECT id FROM chapters WHERE id = ${chapterId}::uuid AND deleted_at IS NULL`,
  );
  if (!chapter) throw notFound(CHAPTER_NOT_FOUND);
  return rows(
    db,
    z.object({ id: z.string(), title: z.string() }),
    sql`SELECT id, title FROM exercises WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' AND deleted_at IS NULL ORDER BY position, created_at, id`,
  );
}

/** The correctors assigned to each exercise that has any. */
export async function assignmentsOf(db: Tx, exerciseIds: readonly string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (exerciseIds.length === 0) return map;
  const list = await rows(
    db,
    z.object({ exercise_id: z.string(), user_id: z.string() }),
    sql`SELECT exercise_id, user_id FROM grading_assignments WHERE exercise_id = ANY(${uuidArray(exerciseIds)}) ORDER BY user_id`,
  );
  for (const r of list) map.set(r.exercise_id, [...(map.get(r.exercise_id) ?? []), r.user_id]);
  return map;
}

/** Members and admins, who may be given exercises to grade. */
function listCorrectors(db: Tx) {
  return rows(
    db,
    z.object({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() }),
    sql`SELECT u.id, u.first_name, u.last_name FROM users u
        WHERE u.is_admin OR EXISTS (SELECT 1 FROM group_members gm JOIN groups g ON g.id = gm.group_id
                                    WHERE gm.user_id = u.id AND g.system_key = 'members')
        ORDER BY u.last_name, u.first_name, u.id`,
  );
}

/** Replaces the assignments of a chapter's exercises. */
async function replaceAssignments(db: Tx, exerciseIds: readonly string[], pairs: ReadonlyArray<{ exercise: string; user: string }>) {
  if (exerciseIds.length > 0) {
    await db.execute(sql`DELETE FROM grading_assignments WHERE exercise_id = ANY(${uuidArray(exerciseIds)})`);
  }
  if (pairs.length > 0) {
    await db.execute(sql`
      INSERT INTO grading_assignments (exercise_id, user_id)
      SELECT p.exercise_id, p.user_id FROM json_to_recordset(${JSON.stringify(pairs.map((p) => ({ exercise_id: p.exercise, user_id: p.user })))}::json)
        AS p(exercise_id uuid, user_id uuid)
      ON CONFLICT DO NOTHING`);
  }
}

/** GET /chapter/{id}/assignments: who grades which answerable exercise (none: anyone), and who may be chosen. */
export async function getAssignments(db: Db, chapterId: string): Promise<Assignments> {
  const exercises = await chapterExercises(db, chapterId);
  const assigned = await assignmentsOf(
    db,
    exercises.map((e) => e.id),
  );
  return presentAssignments(exercises, assigned, await listCorrectors(db));
}

/**
 * PUT /chapter/{id}/assignments (admins): replaces the chapter's assignments. Every exercise must be an
 * answerable one of the chapter and every corrector a member or an admin; the change is audited.
 */
export async function saveAssignments(db: Db, auth: AuthContext, chapterId: string, input: AssignmentsSave): Promise<void> {
  const exercises = await chapterExercises(db, chapterId);
  const ids = new Set(exercises.map((e) => e.id));
  const correctors = new Set((await listCorrectors(db)).map((c) => c.id));
  const pairs: Array<{ exercise: string; user: string }> = [];
  for (const a of input.assignments) {
    if (!ids.has(a.exercise)) throw badRequest('Cet exercice n’appartient pas au chapitre ou n’attend pas de réponse.');
    for (const user of a.correctors) {
      if (!correctors.has(user)) throw badRequest('Seuls les membres du jury et les administrateurs peuvent corriger.');
      pairs.push({ exercise: a.exercise, user });
    }
  }
  await db.transaction(async (tx) => {
    await replaceAssignments(tx, [...ids], pairs);
    await audit(tx, auth, 'grading.assign', chapterId, { assignments: input.assignments });
  });
}
