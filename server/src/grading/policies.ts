import { hasRole, type AuthContext } from '../auth/context.js';
import { forbidden } from '../errors.js';

/** Per-record rules of the correction (docs/architecture.md « Where things go »). */

/**
 * Dividing the work (decision 64): an exercise with assigned correctors hands copies to them only (admins
 * excepted); an exercise without assignments to every corrector.
 */
export function canTakeCopies(auth: AuthContext, assigned: readonly string[] | undefined): boolean {
  return !assigned || auth.isAdmin || assigned.includes(auth.userId);
}

/** GET /answer/history/{uid}/{eid}: members and admins read any pupil's copy, a pupil only their own. */
export function assertMaySeeCopy(auth: AuthContext, userId: string): void {
  if (!canGrade(auth) && auth.userId !== userId) throw forbidden();
}

/** Members and admins grade: they read a copy with its grading context and every grade field. */
export function canGrade(auth: AuthContext): boolean {
  return hasRole(auth, 'member');
}

/**
 * Anonymous correction (decisions 62 and 128): in an anonymous chapter, a corrector who is not an admin gets
 * pseudonyms, names a copy by its copy id, and no name, e-mail, school, gender or birth date of pupils. Admins see
 * names, and so does a pupil reading their own copy.
 */
export function canSeeNames(auth: AuthContext, chapter: { anonymous_grading: boolean }): boolean {
  return !chapter.anonymous_grading || auth.isAdmin || !canGrade(auth);
}

/**
 * The per-corrector lines of the table (decision 129): an admin reads every corrector's count and mean; a
 * corrector only their own, so that under blind double marking no difference of sums gives away a grade
 * still hidden from them.
 */
export function canSeeCorrectorLine(auth: AuthContext, graderId: string): boolean {
  return auth.isAdmin || graderId === auth.userId;
}

/** The overview (decision 61): admins supervise and see every grading of a copy; a corrector, only once both are in (visibleGradings). */
export function canSeeEveryGrading(auth: AuthContext): boolean {
  return auth.isAdmin;
}

/** Double correction: once both gradings are in, an admin who graded neither settles the copy (gradingRole « arbiter »). */
export function canArbitrate(auth: AuthContext): boolean {
  return auth.isAdmin;
}

/**
 * The exercise's comment bank (decision 160): read by the correctors who may grade it (canGrade, and canTakeCopies under
 * its assignments) and by admins; a corrector of it may also add a remark while grading.
 */
export function assertMayUseBank(auth: AuthContext, assigned: readonly string[] | undefined): void {
  if (!canGrade(auth) || !canTakeCopies(auth, assigned)) throw forbidden('Cet exercice est attribué à d’autres correcteurs.');
}

/** Rewording, reordering and retiring the bank's remarks (decision 160): admins. */
export function assertMayCurateBank(auth: AuthContext): void {
  if (!auth.isAdmin) throw forbidden();
}
