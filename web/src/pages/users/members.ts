import { GRADE_LABELS, normalizeText, splitEmailList, type GroupMember } from '@olympe/contract';
import type { CsvCell } from '../../lib/csv';

/** docs/product.md#spec-2: gender shown as M/F/O. */
export const GENDER_SHORT: Record<string, string> = { male: 'M', female: 'F', other: 'O' };

/** docs/product.md#spec-2: birth date shown dd-mm-yyyy. A date-only string: no time zone is involved. */
export function formatBirthDate(date: string | null): string {
  const m = date ? /^(\d{4})-(\d{2})-(\d{2})/.exec(date) : null;
  return m ? `${m[3]}-${m[2]}-${m[1]}` : '';
}

export const yesNo = (value: boolean) => (value ? 'Oui' : 'Non');
export const gradeLabel = (grade: GroupMember['grade']) => (grade ? GRADE_LABELS[grade] : '');

/**
 * Search (docs/product.md#spec-2: first name, last name or e-mail; accent- and case-insensitive). The normalised
 * text of each member is computed once per load, so a keystroke over 10,000 members only runs
 * `includes` on prepared strings.
 */
export function buildSearchIndex(members: readonly GroupMember[]): string[] {
  return members.map((m) => normalizeText(`${m.firstName ?? ''} ${m.lastName ?? ''} ${m.email}`));
}

/** Members whose prepared text holds every word of the query. */
export function filterMembers(members: readonly GroupMember[], index: readonly string[], query: string): GroupMember[] {
  const words = normalizeText(query).split(' ').filter(Boolean);
  if (words.length === 0) return [...members];
  const out: GroupMember[] = [];
  for (let i = 0; i < members.length; i++) {
    const text = index[i];
    if (words.every((w) => text.includes(w))) out.push(members[i]);
  }
  return out;
}

/** "Ajouter": the list plus the e-mails of the input (docs/product.md#spec-5 split rule), each once. */
export function addEmails(list: readonly string[], input: string): string[] {
  return [...new Set([...list, ...splitEmailList(input)])];
}

/** "Retirer": the list without the e-mails of the input. */
export function removeEmails(list: readonly string[], input: string): string[] {
  const drop = new Set(splitEmailList(input));
  return list.filter((e) => !drop.has(e));
}

/** What a pending list changes compared with the saved members. */
export function diffEmails(saved: readonly string[], pending: readonly string[]) {
  const before = new Set(saved);
  const after = new Set(pending);
  return { added: pending.filter((e) => !before.has(e)), removed: saved.filter((e) => !after.has(e)) };
}

/** docs/product.md#spec-9: the group members CSV has 16 columns. */
export const MEMBER_CSV_HEADER = [
  'Identifiant',
  'Prénom',
  'Nom',
  'E-mail',
  'E-mail élève',
  'E-mail parent',
  'E-mail autre parent',
  'Genre',
  'Date de naissance',
  'Classe',
  'Choix par défaut',
  'Notifications',
  'Établissement',
  'E-mail de l’établissement',
  'Identifiant de l’établissement',
  'Administrateur',
] as const;

const DEFAULT_CHOICE_LABELS: Record<string, string> = { local: 'Local', global: 'Global' };

export function memberCsvRows(members: readonly GroupMember[]): CsvCell[][] {
  return [
    [...MEMBER_CSV_HEADER],
    ...members.map((m) => [
      m._id,
      m.firstName,
      m.lastName,
      m.email,
      m.emailStudent,
      m.emailParent,
      m.emailOtherParent,
      m.gender ? GENDER_SHORT[m.gender] : '',
      formatBirthDate(m.birthDate),
      gradeLabel(m.grade),
      m.defaultChoice ? DEFAULT_CHOICE_LABELS[m.defaultChoice] : '',
      yesNo(m.emailNotifications),
      m.institution?.name,
      m.institution?.email,
      m.institution?._id,
      yesNo(m.isAdmin),
    ]),
  ];
}

/** docs/product.md#spec-9: the file is named after the group plus _members.csv. */
export const memberCsvFileName = (groupName: string) => `${groupName}_members.csv`;
