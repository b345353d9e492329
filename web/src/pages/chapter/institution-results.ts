import { formatPoints, GENDER_LABELS, GRADE_LABELS, institutionResultsHeader, type InstitutionResults } from '@olympe/contract';
import type { CsvCell } from '../../lib/csv';

/**
 * A school's results as CSV rows (decision 71), the same columns as the XLSX: French labels for class
 * and gender, points with a decimal comma so that a French spreadsheet reads them as numbers.
 */
export function institutionCsvRows(results: InstitutionResults): CsvCell[][] {
  const ranked = results.pupils.some((p) => p.rank !== undefined);
  const qualifies = results.qualificationText !== undefined;
  const points = (n: number | null | undefined) => (n === null || n === undefined ? '' : formatPoints(n));
  return [
    institutionResultsHeader(results),
    ...results.pupils.map((p) => [
      p.lastName,
      p.firstName,
      p.grade ? GRADE_LABELS[p.grade] : '',
      p.gender ? GENDER_LABELS[p.gender] : '',
      ...p.grades.map((g) => (g.excused ? 'X' : points(g.grade))),
      points(p.total),
      ...(ranked ? [p.rank ?? '', p.participants ?? '', p.percentile ?? ''] : []),
      ...(qualifies ? [p.qualified ? 'Oui' : 'Non'] : []),
    ]),
  ];
}
