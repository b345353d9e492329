import { GENDER_LABELS, GRADE_LABELS, institutionResultsHeader, type InstitutionResults } from '@olympe/contract';
import writeXlsxFile, { type Row } from 'write-excel-file/node';

/** Cell text: a header or a label (a string cell is never read as a formula by a spreadsheet). */
const text = (value: string) => ({ value, type: String });
const header = (value: string) => ({ value, type: String, fontWeight: 'bold' as const });
/** Points as real numbers, shown with a decimal comma by a French spreadsheet. */
const points = (value: number | null) => (value === null ? null : { value, type: Number, format: '0.##' });

/**
 * A school's results as an .xlsx workbook (issue 21): typed numbers, French labels for class and
 * gender, a frozen header row; written by write-excel-file (decision on results exports).
 */
export async function institutionWorkbook(results: InstitutionResults): Promise<Buffer> {
  const ranked = results.pupils.some((p) => p.rank !== undefined);
  const qualifies = results.qualificationText !== undefined;
  const data: Row[] = [
    institutionResultsHeader(results).map(header),
    ...results.pupils.map((p): Row => [
      text(p.lastName ?? ''),
      text(p.firstName ?? ''),
      text(p.grade ? GRADE_LABELS[p.grade] : ''),
      text(p.gender ? GENDER_LABELS[p.gender] : ''),
      ...p.grades.map((g) => (g.excused ? text('X') : points(g.grade))),
      points(p.total),
      ...(ranked ? [points(p.rank ?? null), points(p.participants ?? null), points(p.percentile ?? null)] : []),
      ...(qualifies ? [text(p.qualified ? 'Oui' : 'Non')] : []),
    ]),
  ];
  return writeXlsxFile(data, { sheet: 'Résultats', stickyRowsCount: 1, columns: data[0].map((_, i) => ({ width: i < 2 ? 20 : 14 })) }).toBuffer();
}
