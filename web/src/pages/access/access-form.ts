import {
  GENDERS,
  GRADES,
  NEW_ACCESS_GROUP_NAME,
  isWallClock,
  isoToParisWallClock,
  parisWallClockToIso,
  type AccessGroup,
  type Gender,
  type Grade,
} from '@olympe/contract';

/**
 * Decision 157: a group may admit only the pupils qualified in a selection. The contract's access group gains
 * `requiredSelectionId` with the server's access rule; until then the form declares it here (the server's schema
 * strips a key it does not know, so sending it changes nothing before that).
 */
export type AccessGroupWithSelection = AccessGroup & { requiredSelectionId?: string | null };

/**
 * A row of the /access table as the form holds it: dates as the inputs show them, in Europe/Paris
 * wall-clock time whatever the browser's zone (docs/product.md#spec-5); '' for an empty field.
 */
export interface AccessFormRow {
  key: string;
  name: string;
  genders: Gender[];
  grades: Grade[];
  birthDateMin: string;
  birthDateMax: string;
  /** Minutes; '' means no limit. */
  duration: number | '';
  start: string;
  end: string;
  /** The selection whose qualified pupils alone match, or null for none (decision 157). */
  requiredSelectionId: string | null;
}

let counter = 0;
const newKey = () => `g-${Date.now()}-${counter++}`;

/** docs/product.md#spec-2: a new group is named "all", with all genders, all grades, no dates and no duration. */
export function newAccessRow(): AccessFormRow {
  return {
    key: newKey(),
    name: NEW_ACCESS_GROUP_NAME,
    genders: [...GENDERS],
    grades: [...GRADES],
    birthDateMin: '',
    birthDateMax: '',
    duration: '',
    start: '',
    end: '',
    requiredSelectionId: null,
  };
}

/** An empty list means "any" on the server; the form shows it as everything ticked. */
export function toFormRow(g: AccessGroupWithSelection): AccessFormRow {
  return {
    key: newKey(),
    name: g.name,
    genders: g.authorizedGenders.length ? [...g.authorizedGenders] : [...GENDERS],
    grades: g.authorizedGrades.length ? [...g.authorizedGrades] : [...GRADES],
    birthDateMin: g.birthDateMin ?? '',
    birthDateMax: g.birthDateMax ?? '',
    duration: g.timeDuration ?? '',
    start: g.accessStart ? isoToParisWallClock(g.accessStart) : '',
    end: g.accessEnd ? isoToParisWallClock(g.accessEnd) : '',
    requiredSelectionId: g.requiredSelectionId ?? null,
  };
}

const all = <T>(picked: readonly T[], every: readonly T[]) => every.every((v) => picked.includes(v));

/**
 * The form rows as PATCH /chapter/{id} expects them (dates converted from Paris time to
 * instants), or the first problem found, in French, so that nothing is sent.
 */
export function toAccessGroups(rows: readonly AccessFormRow[]): { groups: AccessGroupWithSelection[] } | { error: string } {
  const groups: AccessGroupWithSelection[] = [];
  for (const [i, row] of rows.entries()) {
    const label = `Groupe ${i + 1} (« ${row.name.trim() || NEW_ACCESS_GROUP_NAME} »)`;
    if (row.genders.length === 0) return { error: `${label} : choisissez au moins un genre.` };
    if (row.grades.length === 0) return { error: `${label} : choisissez au moins une classe.` };
    if (row.duration !== '' && (!Number.isInteger(row.duration) || row.duration < 0)) {
      return { error: `${label} : la durée doit être un nombre entier de minutes, positif ou nul.` };
    }
    for (const [field, value] of [
      ['début', row.start],
      ['fin', row.end],
    ] as const) {
      if (value !== '' && !isWallClock(value)) return { error: `${label} : date de ${field} invalide.` };
    }
    if (row.birthDateMin && row.birthDateMax && row.birthDateMax < row.birthDateMin) {
      return { error: `${label} : la date de naissance maximale doit être après la minimale.` };
    }
    const accessStart = row.start ? parisWallClockToIso(row.start) : null;
    const accessEnd = row.end ? parisWallClockToIso(row.end) : null;
    if (accessStart && accessEnd && Date.parse(accessEnd) <= Date.parse(accessStart)) {
      return { error: `${label} : la fin de l’accès doit être après son début.` };
    }
    groups.push({
      name: row.name.trim() || NEW_ACCESS_GROUP_NAME,
      authorizedGenders: all(row.genders, GENDERS) ? [] : [...row.genders],
      authorizedGrades: all(row.grades, GRADES) ? [] : [...row.grades],
      birthDateMin: row.birthDateMin || null,
      birthDateMax: row.birthDateMax || null,
      timeDuration: row.duration === '' ? null : row.duration,
      accessStart,
      accessEnd,
      requiredSelectionId: row.requiredSelectionId,
    });
  }
  return { groups };
}
