import { scoreTerms, type AnalysisPerson, type ChapterAnalysis, type IndividualAnalysis, type ScoreTerms } from '@olympe/contract';

export const personName = (p: AnalysisPerson) => `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim() || 'Élève sans nom';

export interface IndividualRow extends IndividualAnalysis {
  name: string;
  /** "Nom Prénom" for sorting by last name. */
  sortName: string;
  terms: ScoreTerms;
}

/** The table rows, each with its name and the three terms of its score. */
export function buildIndividualRows(data: Pick<ChapterAnalysis, 'individualAnalysis'>): IndividualRow[] {
  return data.individualAnalysis.map((e) => ({
    ...e,
    name: personName(e.user),
    sortName: `${e.user.lastName ?? ''} ${e.user.firstName ?? ''}`,
    terms: scoreTerms(e),
  }));
}

const oneDecimal = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Blur seconds as minutes with one decimal, French style ("12,5"). */
export const formatMinutes = (seconds: number) => oneDecimal.format(seconds / 60);

/** A duration in seconds as "12 min 05 s" ("45 s" under a minute); "—" when there is none. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min ${rest} s`;
  return m > 0 ? `${m} min ${rest} s` : `${s % 60} s`;
}

/** "15 = 12 + 2 + 1": the score and its terms (blur minutes + blur events + suspicious answers). */
export const scoreBreakdown = (row: Pick<IndividualRow, 'score' | 'terms'>) =>
  `${row.score} = ${row.terms.blurMinutes} + ${row.terms.blurEvents} + ${row.terms.suspicious}`;

/** Names of pupils by id, for the IP groups. */
export function namesById(data: Pick<ChapterAnalysis, 'individualAnalysis'>): Map<string, string> {
  return new Map(data.individualAnalysis.map((e) => [e.user._id, personName(e.user)]));
}

/** At most `limit` names of a group, and how many are left out. */
export function groupNames(userIds: readonly string[], names: Map<string, string>, limit = 12): { shown: string[]; more: number } {
  const all = userIds.map((id) => names.get(id) ?? 'Élève inconnu');
  return { shown: all.slice(0, limit), more: Math.max(0, all.length - limit) };
}
