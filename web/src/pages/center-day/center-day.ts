import { GRADE_LABELS, type AttendanceBody, type CenterMember } from '@olympe/contract';
import type { CsvCell } from '../../lib/csv';

/** Ticks of the attendance list: pupil id → present. Unrecorded pupils start unticked (absent). */
export type Ticks = Record<string, boolean>;

export const initialTicks = (members: readonly CenterMember[]): Ticks => Object.fromEntries(members.map((m) => [m._id, m.present === true]));

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
