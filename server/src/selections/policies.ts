import { SELECTION_NOT_PUBLISHED_MESSAGE, type SelectionRight } from '@olympe/contract';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/context.js';
import type { Tx } from '../db/client.js';
import { one, rows } from '../db/query.js';
import { forbidden, notFound, type AppError } from '../errors.js';
import { institutionInScope } from '../institutions/policies.js';

/**
 * Per-record rules on selections (decision 155): an admin does everything; the members of the selection's jury
 * group read its board, and decide (cut-offs, decisions, freezing) when the group was given that right. Nobody
 * else reaches a selection by any route but their own qualification, once published.
 */

const NOT_JURY_MESSAGE = 'Vous ne faites pas partie du jury de cette sélection.';
const READ_ONLY_MESSAGE =
  'Le jury de cette sélection a un droit de lecture\u00a0: seuls les administrateurs et un jury qui décide modifient la liste.';

/** The caller's right on a selection, or 404 (no such selection) / 403 (not its jury). */
export async function selectionRightOf(db: Tx, auth: AuthContext, selectionId: string): Promise<SelectionRight> {
  const found = await one(
    db,
    z.object({ jury_right: z.string(), member: z.boolean() }),
    sql`SELECT s.jury_right, EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = s.jury_group_id AND m.user_id = ${auth.userId}::uuid) AS member
        FROM selections s WHERE s.id = ${selectionId}::uuid`,
  );
  if (!found) throw notFound('Sélection introuvable.');
  if (auth.isAdmin) return 'admin';
  if (!found.member) throw forbidden(NOT_JURY_MESSAGE);
  return found.jury_right === 'decide' ? 'decide' : 'read';
}

/** Moving a cut-off, deciding on a pupil, freezing: an admin or a jury given the right to decide. */
export function assertMayDecide(right: SelectionRight): void {
  if (right === 'read') throw forbidden(READ_ONLY_MESSAGE);
}

/** Creating, editing, publishing a selection and lifting its anonymity: admins only. */
export function assertMayManage(right: SelectionRight): void {
  if (right !== 'admin') throw forbidden('Seuls les administrateurs gèrent les sélections.');
}

/** GET /selection: an admin sees every selection; a jury member those of their groups; anyone else is refused. */
export async function visibleSelectionIds(db: Tx, auth: AuthContext): Promise<'all' | string[]> {
  if (auth.isAdmin) return 'all';
  const found = await rows(
    db,
    z.object({ id: z.string() }),
    sql`SELECT s.id FROM selections s JOIN group_members m ON m.group_id = s.jury_group_id AND m.user_id = ${auth.userId}::uuid`,
  );
  if (found.length === 0) throw forbidden(NOT_JURY_MESSAGE);
  return found.map((r) => r.id);
}

/**
 * Names on the board: once a version is frozen, or once an admin lifted the anonymity (audited), and to admins only. A
 * jury member who is not an admin may correct an anonymous chapter: they read pseudonyms throughout (decision 155).
 */
export const namesShown = (versions: number, namesRevealedAt: Date | null, right: SelectionRight): boolean =>
  right === 'admin' && (versions > 0 || namesRevealedAt !== null);

/** A pupil downloads their own qualification letter; only an admin names another pupil (decision 157). */
export function assertMayGetLetter(auth: AuthContext, target: string): void {
  if (target !== auth.userId && !auth.isAdmin) throw forbidden('Vous ne pouvez télécharger que votre propre lettre de qualification.');
}

/** Pupils and schools read a selection once published; an admin as soon as a version is frozen (decision 157). */
export function assertMaySeeList(auth: AuthContext, published: boolean): void {
  if (!auth.isAdmin && !published) throw forbidden(SELECTION_NOT_PUBLISHED_MESSAGE);
}

/** The letter's refusals, worded for the pupil themself or for an admin naming them. */
export function letterRefusal(auth: AuthContext, target: string, reason: 'absent' | 'not-qualified'): AppError {
  const own = target === auth.userId;
  if (reason === 'absent')
    return notFound(
      own ? 'Vous ne figurez pas sur la liste de cette sélection.' : 'Cet élève ne figure pas sur la liste de cette sélection.',
    );
  return forbidden(
    own
      ? 'Vous n’êtes pas qualifié(e) dans cette sélection : il n’y a pas de lettre de qualification.'
      : 'Cet élève n’est pas qualifié(e) dans cette sélection : il n’a pas de lettre de qualification.',
  );
}

/** The school whose qualified pupils a caller reads: staff their own, an admin names one (as results, decision 157). */
export function selectionInstitutionOf(auth: AuthContext, requested?: string): string {
  return institutionInScope(auth, requested, {
    unnamed: 'Indiquez l’établissement.',
    noSchool: 'Votre compte n’est rattaché à aucun établissement : demandez à un administrateur de l’y rattacher.',
    otherSchool: 'Vous ne pouvez voir que les élèves qualifiés de votre établissement.',
  });
}
