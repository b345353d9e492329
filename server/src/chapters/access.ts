/** One row of a chapter's access table (SPEC §3 Access group). */
export interface AccessRule {
  authorizedGenders: readonly string[];
  authorizedGrades: readonly string[];
  birthDateMin: string | null;
  birthDateMax: string | null;
  timeDuration: number | null;
  accessStart: Date | null;
  accessEnd: Date | null;
}

export interface Candidate {
  gender: string | null;
  grade: string | null;
  birthDate: string | null;
}

/**
 * DESIGN §3 "Chapters and access": the first group, in table order, whose genders, grades and
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
  return true;
}
