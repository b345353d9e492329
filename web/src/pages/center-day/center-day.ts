import { GRADE_LABELS, parisDateOf, type AttendanceBody, type CenterMember } from '@olympe/contract';
import type { CsvCell } from '../../lib/csv';

/** Ticks of the attendance list: pupil id → present. Unrecorded pupils start unticked (absent). */
export type Ticks = Record<string, boolean>;

export const initialTicks = (members: readonly CenterMember[]): Ticks =>
  Object.fromEntries(members.map((m) => [m._id, m.present === true]));

/** The PUT body: every registered pupil, present or absent (recording the list records the absences). */
export const attendanceBody = (members: readonly CenterMember[], ticks: Ticks): AttendanceBody =>
  members.map((m) => ({ user: m._id, present: ticks[m._id] === true }));

const presence = (p: boolean | null | undefined) => (p === true ? 'présent' : p === false ? 'absent' : '');

/** The registered pupils as CSV rows (the one CSV writer of the app formats them). */
export function registeredCsvRows(members: readonly CenterMember[]): CsvCell[][] {
  return [
    ['Nom', 'Prénom', 'Classe', 'Établissement', 'Présence'],
    ...members.map((m) => [m.lastName, m.firstName, m.grade ? GRADE_LABELS[m.grade] : '', m.institution?.name ?? '', presence(m.present)]),
  ];
}

/** « 12 inscrits dont 3 extérieurs pour 5 places » — the count against places. */
export function placesText(registered: number, outside: number, places: number): string {
  const s = (n: number) => (n > 1 ? 's' : '');
  return `${registered} inscrit${s(registered)}, dont ${outside} extérieur${s(outside)} pour ${places} place${s(places)} ouverte${s(places)} aux autres établissements`;
}

/**
 * « Présents : 3 ; absents : 2 », from the exam day on (Paris date of the sitting): before it nobody can be absent yet,
 * and a sitting not dated yet has no exam day (decision 141). Null when it is not to be shown.
 */
export function attendanceText(registered: number, present: number, sittingAt: string | null, now: Date = new Date()): string | null {
  if (!sittingAt || parisDateOf(now) < parisDateOf(sittingAt)) return null;
  return `Présents\u00a0: ${present}\u00a0; absents\u00a0: ${registered - present}.`;
}
