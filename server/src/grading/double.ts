import { settleDouble, type DeskRole, type DoubleStatus } from '@olympe/contract';

/**
 * Double correction (decision 63), pure rules: where a copy stands,
 * what a save by this caller is, and whose gradings the caller may see.
 */

export interface GradingLike {
  grader_id: string | null;
  grade: string | null;
  arbitration: boolean;
}

/** Status of a copy from its gradings (the graders' in order, then an arbitration) and the tolerance. */
export function doubleStatus(gradings: readonly GradingLike[], tolerance: number): DoubleStatus {
  if (gradings.some((g) => g.arbitration)) return 'arbitrated';
  const normal = gradings.filter((g) => !g.arbitration && g.grade !== null);
  if (normal.length === 0) return 'none';
  if (normal.length === 1) return 'partial';
  return settleDouble(normal[0].grade!, normal[1].grade!, tolerance).status;
}

/** The grade the answer row carries once settled (arbitration first, else the mean within tolerance), or null. */
export function doubleFinal(gradings: readonly GradingLike[], tolerance: number): string | null {
  const arbitration = gradings.find((g) => g.arbitration);
  if (arbitration) return arbitration.grade;
  const normal = gradings.filter((g) => !g.arbitration && g.grade !== null);
  if (normal.length < 2) return null;
  return settleDouble(normal[0].grade!, normal[1].grade!, tolerance).grade;
}

/**
 * What this caller's save is: their own grading (first or second), a new one while fewer than two
 * exist, an admin's arbitration once both are in (an admin who graded the copy is not its arbiter),
 * or nothing left for them ('done').
 */
export function deskRole(gradings: readonly GradingLike[], callerId: string, isAdmin: boolean): DeskRole {
  const normal = gradings.filter((g) => !g.arbitration);
  const mine = normal.findIndex((g) => g.grader_id === callerId);
  if (mine >= 0) return mine === 0 ? 'first' : 'second';
  if (normal.length < 2) return normal.length === 0 ? 'first' : 'second';
  return isAdmin ? 'arbiter' : 'done';
}

/** Neither corrector sees the other's grading until both are in (or an admin settled the copy). */
export function visibleGradings<T extends GradingLike>(gradings: readonly T[], callerId: string): T[] {
  const normal = gradings.filter((g) => !g.arbitration);
  if (normal.length >= 2 || gradings.some((g) => g.arbitration)) return [...gradings];
  return gradings.filter((g) => g.grader_id === callerId);
}
