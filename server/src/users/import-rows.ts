import { type Gender, type Grade, hasForbiddenNameCharacter, normalizeText, pastDate } from '@olympe/contract';
import { z } from 'zod';

/**
 * The pure part of the bulk import of pupils (decision 142 for the headers and values as tools write them): which column is which, and what each line
 * becomes. No database here: service-side matching of existing accounts is in import.ts.
 */

/** A cell as the file reader gives it: CSV text, or an XLSX value (a date arrives as a Date). */
export type Cell = string | number | boolean | Date | null;

export const IMPORT_COLUMNS = {
  email: {
    label: 'E-mail',
    names: [
      'email',
      'e-mail',
      'courriel',
      'mail',
      'adresse e-mail',
      'adresse mail',
      'adresse électronique',
      'adresse courriel',
      'e-mail élève',
      'courriel élève',
      'mail élève',
    ],
  },
  firstName: { label: 'Prénom', names: ['prénom', 'prénom élève', 'prénoms', 'first name'] },
  lastName: { label: 'Nom', names: ['nom', 'nom de famille', 'nom élève', 'nom d’usage', 'last name'] },
  birthDate: {
    label: 'Date de naissance',
    names: ['date de naissance', 'naissance', 'date naissance', 'né(e) le', 'né le', 'née le', 'date of birth', 'birth date'],
  },
  grade: { label: 'Classe', names: ['classe', 'niveau', 'niveau de classe', 'grade'] },
  gender: { label: 'Genre', names: ['genre', 'sexe', 'gender'] },
  emailParent: {
    label: 'E-mail parent',
    names: [
      'e-mail parent',
      'courriel parent',
      'mail parent',
      'e-mail du parent',
      'courriel du parent',
      'mail du parent',
      'e-mail responsable',
      'courriel responsable',
      'e-mail des parents',
      'courriel des parents',
    ],
  },
} as const;
export type ImportColumn = keyof typeof IMPORT_COLUMNS;
const OPTIONAL: ReadonlySet<ImportColumn> = new Set(['emailParent']);

/**
 * A header as the spreadsheet tools write it, reduced to its letters and digits (accents, case, spaces,
 * dashes, underscores, apostrophes and brackets dropped): « E-mail », « EMAIL », « DATE_NAISSANCE »,
 * « Date de naissance », « Né(e) le » → "email", "email", "datenaissance", "datedenaissance", "neele".
 */
export const headerKey = (cell: Cell) => normalizeText(String(cell ?? '')).replace(/[^a-z0-9]+/g, '');

/** Each column's names, reduced like the headers they are compared with. */
const COLUMN_KEYS = new Map(
  (Object.keys(IMPORT_COLUMNS) as ImportColumn[]).map((column) => [column, new Set(IMPORT_COLUMNS[column].names.map(headerKey))] as const),
);

export type ColumnPositions = Record<ImportColumn, number>;

/**
 * Finds the columns by their header, in any order, written as any tool writes it (headerKey: « EMAIL »,
 * « DATE_NAISSANCE », « Né(e) le »…); throws the French reason when one is missing.
 */
export function findColumns(header: readonly Cell[]): ColumnPositions {
  const keys = header.map(headerKey);
  const positions = {} as ColumnPositions;
  const missing: string[] = [];
  for (const [column, names] of COLUMN_KEYS) {
    const at = keys.findIndex((k) => names.has(k));
    positions[column] = at;
    if (at < 0 && !OPTIONAL.has(column)) missing.push(`« ${IMPORT_COLUMNS[column].label} »`);
  }
  if (missing.length > 0) {
    throw new Error(
      `La première ligne doit nommer les colonnes. Colonne${missing.length > 1 ? 's' : ''} introuvable${missing.length > 1 ? 's' : ''} : ${missing.join(', ')}. Attendues : E-mail, Prénom, Nom, Date de naissance, Classe, Genre (et, si vous l’avez, E-mail parent).`,
    );
  }
  return positions;
}

const GRADE_WORDS: Record<string, Grade> = {
  '5': '5eme',
  '5e': '5eme',
  '5eme': '5eme',
  cinquieme: '5eme',
  '4': '4eme',
  '4e': '4eme',
  '4eme': '4eme',
  quatrieme: '4eme',
  '3': '3eme',
  '3e': '3eme',
  '3eme': '3eme',
  troisieme: '3eme',
  '2': '2nde',
  '2e': '2nde',
  '2nde': '2nde',
  '2nd': '2nde',
  '2de': '2nde',
  '2gt': '2nde',
  seconde: '2nde',
  '1': '1ere',
  '1e': '1ere',
  '1ere': '1ere',
  '1re': '1ere',
  premiere: '1ere',
  t: 'Tale',
  tale: 'Tale',
  term: 'Tale',
  terminale: 'Tale',
  tle: 'Tale',
  autre: 'other',
  other: 'other',
};

/** The grade words that may have a class's number or letter glued to them (« 2nde4 », « 3eB », « Tle1 »), longest first. */
const GLUED_GRADE_WORDS = Object.keys(GRADE_WORDS)
  .filter((w) => w.length >= 2)
  .sort((a, b) => b.length - a.length);

/**
 * « 3e », « 3ème B », « Seconde 4 », « seconde générale », « 2nde4 », « Terminale » → the grade; the
 * class's letter or number after it, and what follows the first word, are ignored.
 */
export function parseGrade(value: string): Grade | null {
  const t = normalizeText(value)
    .replace(/[^a-z0-9 ]+/g, ' ')
    .trim();
  if (!t) return null;
  const first = t.split(' ')[0];
  const exact = GRADE_WORDS[t] ?? GRADE_WORDS[first];
  if (exact) return exact;
  const glued = GLUED_GRADE_WORDS.find((w) => first.startsWith(w) && /^(?:\d{1,2}|[a-z])$/.test(first.slice(w.length)));
  return glued ? GRADE_WORDS[glued] : null;
}

const GENDER_WORDS: Record<string, Gender> = {
  f: 'female',
  fille: 'female',
  feminin: 'female',
  fem: 'female',
  femme: 'female',
  female: 'female',
  m: 'male',
  g: 'male',
  h: 'male',
  garcon: 'male',
  masculin: 'male',
  masc: 'male',
  homme: 'male',
  male: 'male',
  o: 'other',
  autre: 'other',
  other: 'other',
  x: 'other',
};

/** « F », « f. », « Fille », « Féminin », « M », « Garçon », « Masculin », « Autre » → the gender. */
export function parseGender(value: string): Gender | null {
  return GENDER_WORDS[normalizeText(value).replace(/[^a-z]+/g, '')] ?? null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A birth date as people type it: 14/03/2011, 4/3/2011, 14-03-2011, 14.03.2011, 14/03/11, 2011-03-14
 * (with a time after it, as a spreadsheet may write a date cell in a CSV), or a spreadsheet date (a
 * Date, or Excel's day number). Returns AAAA-MM-JJ, or null when it is not a date at all.
 */
export function parseBirthDate(value: Cell, today = new Date()): string | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    // Spreadsheet dates are midnight UTC of the day written.
    return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
  }
  if (typeof value === 'number') {
    // Excel's serial day (1900 system): day 25569 is 1970-01-01.
    if (value < 1 || value > 2_958_465) return null;
    return new Date(Math.round((value - 25569) * 86_400_000)).toISOString().slice(0, 10);
  }
  const s = String(value ?? '').trim();
  let m = /^(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4}|\d{2})$/.exec(s);
  if (m) return `${fullYear(m[3], today)}-${pad(Number(m[2]))}-${pad(Number(m[1]))}`;
  m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?$/.exec(s);
  if (m) return `${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}`;
  return null;
}

/** « 09 » → 2009 and « 98 » → 1998: a two-digit year is the latest one not after this year. */
function fullYear(year: string, today: Date): string {
  if (year.length === 4) return year;
  const century = Math.floor(today.getUTCFullYear() / 100) * 100;
  const y = century + Number(year);
  return String(y > today.getUTCFullYear() ? y - 100 : y);
}

const email = z.string().trim().toLowerCase().max(254).pipe(z.email());

export interface PupilLine {
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  birthDate: string;
  grade: Grade;
  gender: Gender;
  emailParent: string | null;
}

export type ParsedLine =
  { ok: true; pupil: PupilLine } | { ok: false; line: number; email: string; firstName: string; lastName: string; message: string };

const text = (cell: Cell | undefined) => (cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell ?? '')).trim();

/**
 * One line of the file (its number as a spreadsheet shows it) → a pupil, or every reason it is
 * refused, in French, naming the column as the file's header does.
 */
export function parsePupilLine(cells: readonly Cell[], at: ColumnPositions, line: number): ParsedLine {
  const get = (c: ImportColumn) => (at[c] < 0 ? undefined : cells[at[c]]);
  const rawEmail = text(get('email'));
  const firstName = text(get('firstName')).replace(/\s+/g, ' ');
  const lastName = text(get('lastName')).replace(/\s+/g, ' ');
  const problems: string[] = [];

  const parsedEmail = email.safeParse(rawEmail);
  if (!rawEmail) problems.push('e-mail manquant');
  else if (!parsedEmail.success) problems.push(`e-mail invalide (« ${rawEmail.slice(0, 60)} »)`);
  if (!firstName) problems.push('prénom manquant');
  else if (firstName.length > 100) problems.push('prénom trop long (100 caractères au plus)');
  // Decision 134: the same characters as the profile refuses (a control, bidirectional or zero-width one).
  else if (hasForbiddenNameCharacter(firstName)) problems.push('prénom avec un caractère invisible ou de contrôle');
  if (!lastName) problems.push('nom manquant');
  else if (lastName.length > 100) problems.push('nom trop long (100 caractères au plus)');
  else if (hasForbiddenNameCharacter(lastName)) problems.push('nom avec un caractère invisible ou de contrôle');

  const rawBirth = get('birthDate');
  const birthDate = parseBirthDate(rawBirth ?? null);
  if (text(rawBirth) === '') problems.push('date de naissance manquante');
  else if (!birthDate) problems.push(`date de naissance illisible (« ${text(rawBirth).slice(0, 20)} », attendu JJ/MM/AAAA)`);
  else if (!pastDate.safeParse(birthDate).success) problems.push(`date de naissance impossible (« ${text(rawBirth).slice(0, 20)} »)`);

  const rawGrade = text(get('grade'));
  const grade = parseGrade(rawGrade);
  if (!rawGrade) problems.push('classe manquante');
  else if (!grade) problems.push(`classe inconnue (« ${rawGrade.slice(0, 20)} », attendu 5e, 4e, 3e, 2nde, 1re, Terminale ou Autre)`);

  const rawGender = text(get('gender'));
  const gender = parseGender(rawGender);
  if (!rawGender) problems.push('genre manquant');
  else if (!gender) problems.push(`genre inconnu (« ${rawGender.slice(0, 20)} », attendu F, M ou Autre)`);

  const rawParent = text(get('emailParent'));
  const parent = rawParent ? email.safeParse(rawParent) : null;
  if (parent && !parent.success) problems.push(`e-mail du parent invalide (« ${rawParent.slice(0, 60)} »)`);

  if (problems.length > 0 || !parsedEmail.success || !birthDate || !grade || !gender) {
    const message = problems.join(' ; ');
    return { ok: false, line, email: rawEmail, firstName, lastName, message: message.charAt(0).toUpperCase() + message.slice(1) + '.' };
  }
  return {
    ok: true,
    pupil: {
      line,
      email: parsedEmail.data,
      firstName,
      lastName,
      birthDate,
      grade,
      gender,
      emailParent: parent?.success ? parent.data : null,
    },
  };
}

/** A line with no value at all (a spreadsheet's trailing empty rows) is not a pupil. */
export const isBlankLine = (cells: readonly Cell[]) => cells.every((c) => text(c ?? null) === '');
