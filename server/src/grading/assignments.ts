import type { Assignments, AssignmentsSave } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/context.js';
import { audit } from '../db/audit.js';
import type { Db } from '../db/client.js';
import { rows } from '../db/query.js';
import { badRequest, notFound } from '../errors.js';
import { assignmentsOf, listCorrectors, replaceAssignments } from './queries.js';

async function chapterExercises(db: Db, chapterId: string) {
  const [chapter] = await rows<{ id: string }>(db, sql`SELECT id FROM chapters WHERE id = ${chapterId}::uuid AND deleted_at IS NULL`);
  if (!chapter) throw notFound('Chapitre introuvable.');
  return rows<{ id: string; title: string }>(
    db,
    sql`SELECT id, title FROM exercises WHERE chapter_id = ${chapterId}::uuid AND answer_format <> 'none' AND deleted_at IS NULL ORDER BY position, created_at, id`,
  );
}

/** GET /chapter/{id}/assignments: who grades which answerable exercise (none: anyone), and who may be chosen. */
export async function getAssignments(db: Db, chapterId: string): Promise<Assignments> {
  const exercises = await chapterExercises(db, chapterId);
  const assigned = await assignmentsOf(
    db,
    exercises.map((e) => e.id),
  );
  const correctors = await listCorrectors(db);
  return {
    exercises: exercises.map((e) => ({ _id: e.id, title: e.title, correctors: assigned.get(e.id) ?? [] })),
    correctors: correctors.map((c) => ({ _id: c.id, firstName: c.first_name, lastName: c.last_name })),
  };
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
