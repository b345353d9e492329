/** One row of a chapter's access table (docs/product.md#spec-3 Access group). */
export interface AccessRule {
  authorizedGenders: readonly string[];
  authorizedGrades: readonly string[];
  birthDateMin: string | null;
  birthDateMax: string | null;
  timeDuration: number | null;
  accessStart: Date | null;
  accessEnd: Date | null;
  /** Decision 157: the group admits only pupils qualified in this selection (its latest published version). */
  requiredSelectionId?: string | null;
}

export interface Candidate {
  gender: string | null;
  grade: string | null;
  birthDate: string | null;
  /**
   * The selections the pupil is qualified in (latest published version, selections/qualification.ts); loaded only
   * when one of the rules requires a selection. Absent: qualified in none.
   */
  qualifiedIn?: ReadonlySet<string>;
}

/** A pupil's profile columns beside those their chapter session recorded at its start (`access_*`, null before). */
export interface ProfileColumns {
  gender: string | null;
  grade: string | null;
  birth_date: string | null;
  access_gender: string | null;
  access_grade: string | null;
  access_birth_date: string | null;
}

/**
 * The profile a pupil's access group is matched on: once their session started, the one it started with, so
 * that changing one's grade (or birth date, gender) afterwards neither ends the clock nor moves the pupil to
 * another group; before, their current profile.
 */
export function accessProfileOf(row: ProfileColumns, started: boolean): Candidate {
  return started && row.access_grade !== null
    ? { gender: row.access_gender, grade: row.access_grade, birthDate: row.access_birth_date }
    : { gender: row.gender, grade: row.grade, birthDate: row.birth_date };
}

/**
 * docs/product.md#design-3 "Chapters and access": the first group, in table order, whose genders, grades and
 * birth-date bounds all admit the user decides the window and the duration. An empty list or a
 * missing bound admits anyone; bounds are inclusive dates (ISO strings compare as dates).
 */
export function matchAccessRule<R extends AccessRule>(user: Candidate, rules: readonly R[]): R | null {
  return rules.find((rule) => admits(rule, user)) ?? null;
}

function admits(rule: AccessRule, user: Candidate): boolean {
  if (rule.authorizedGenders.length > 0 && !(user.gender && rule.authorizedGenders.includes(user.gender))) return false;
  if (rule.authorizedGrades.length > 0 && !(user.grade && rule.authorizedGrades.includes(user.grade))) return false;
  if (rule.birthDateMin && !(user.birthDate && user.birthDate >= rule.birthDateMin)) return false;
  if (rule.birthDateMax && !(user.birthDate && user.birthDate <= rule.birthDateMax)) return false;
  if (rule.requiredSelectionId && !user.qualifiedIn?.has(rule.requiredSelectionId)) return false;
  return true;
}

export type WindowStatus = 'before' | 'open' | 'after';

/**
 * Where `now` falls in a rule's window (instants stored as timestamptz, entered in Paris time):
 * open from accessStart inclusive to accessEnd exclusive; a missing bound is open-ended.
 */
export function windowStatus(rule: Pick<AccessRule, 'accessStart' | 'accessEnd'>, now: Date): WindowStatus {
  if (rule.accessStart && now.getTime() < rule.accessStart.getTime()) return 'before';
  if (rule.accessEnd && now.getTime() >= rule.accessEnd.getTime()) return 'after';
  return 'open';
}

/** The rule that decides for this user, and where `now` falls in its window; null when none admits them. */
export function resolveAccess<R extends AccessRule>(
  user: Candidate,
  rules: readonly R[],
  now: Date,
): { rule: R; status: WindowStatus } | null {
  const rule = matchAccessRule(user, rules);
  return rule ? { rule, status: windowStatus(rule, now) } : null;
}
