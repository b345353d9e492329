import {
  CENTER_DAY_HEADERS,
  centerFlagLabel,
  GRADE_LABELS,
  matchesQuery,
  type CenterDayRow,
  type CenterOverview,
  type OverviewUser,
} from '@olympe/contract';
import type { CsvCell } from '../../lib/csv';

export const UNREGISTERED_LABEL = 'Non inscrit';

/** One participant of the "Aperçu du Chapitre" table. */
export interface RegistrationRow {
  key: string;
  user: OverviewUser;
  /** The registration centre; null for pupils without one. */
  center: { _id: string; name: string } | null;
  /** VALIDÉ, EN ATTENTE, or "Non inscrit". */
  status: string;
}

export type StatusFilter = 'all' | 'validated' | 'pending' | 'unregistered';
export const STATUS_FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'Tous' },
  { value: 'validated', label: centerFlagLabel(true) },
  { value: 'pending', label: centerFlagLabel(false) },
  { value: 'unregistered', label: UNREGISTERED_LABEL },
];

/** docs/product.md#spec-2: participants grouped by registration centre (centre order), then the unregistered. */
export function flattenOverview(overview: CenterOverview): RegistrationRow[] {
  const rows: RegistrationRow[] = [];
  for (const group of overview.members) {
    const status = centerFlagLabel(group.validated);
    for (const user of group.members) rows.push({ key: user._id, user, center: group.institution, status });
  }
  for (const user of overview.unregistered) rows.push({ key: user._id, user, center: null, status: UNREGISTERED_LABEL });
  return rows;
}

/** Search (accent- and case-insensitive on name, e-mail, school and centre) and status filter. */
export function filterRegistrations(rows: readonly RegistrationRow[], query: string, status: StatusFilter): RegistrationRow[] {
  const label = STATUS_FILTERS.find((f) => f.value === status)?.label;
  return rows.filter(
    (r) =>
      (status === 'all' || r.status === label) &&
      matchesQuery(query, r.user.firstName, r.user.lastName, r.user.email, r.user.institution?.name, r.center?.name),
  );
}

export const gradeText = (grade: OverviewUser['grade']) => (grade ? GRADE_LABELS[grade] : '');

/** docs/product.md#spec-9: registrations_{chapter}.csv. */
export const registrationsCsvName = (chapterTitle: string) => `registrations_${chapterTitle}.csv`;

export function registrationsCsvRows(rows: readonly RegistrationRow[]): CsvCell[][] {
  return [
    ['Centre', 'Statut du centre', 'Nom', 'Prénom', 'E-mail', 'Classe', 'Établissement'],
    ...rows.map((r) => [
      r.center?.name ?? '',
      r.status,
      r.user.lastName,
      r.user.firstName,
      r.user.email,
      gradeText(r.user.grade),
      r.user.institution?.name ?? '',
    ]),
  ];
}

/** Decision 81: the exam-day table per centre as centres_{chapter}.csv. */
export const centerDayCsvName = (chapterTitle: string) => `centres_${chapterTitle}.csv`;

/** Counts stay numbers (integers: no decimal separator to choose); centre names go through the CSV writer's formula guard. */
export function centerDayCsvRows(rows: readonly CenterDayRow[]): CsvCell[][] {
  return [[...CENTER_DAY_HEADERS], ...rows.map((r) => [r.name, r.registered, r.present, r.absent, r.copies, r.pagesSorted, r.followUp])];
}
