import {
  CELL_EXCUSED,
  GENDER_LABELS,
  GRADES_EXPORT_HEADER,
  outOf,
  GRADE_LABELS,
  cellKind,
  cellNumber,
  institutionResultsHeader,
  totalOf,
  type Gender,
  type Grade,
  type GradingTable,
  type InstitutionResults,
} from '@olympe/contract';
import writeXlsxFile, { type Row } from 'write-excel-file/node';

/** Cell text: a header or a label (a string cell is never read as a formula by a spreadsheet). */
const text = (value: string) => ({ value, type: String });
const header = (value: string) => ({ value, type: String, fontWeight: 'bold' as const });
/** Points as real numbers, shown with a decimal comma by a French spreadsheet. */
const points = (value: number | null) => (value === null ? null : { value, type: Number, format: '0.##' });

/**
 * A school's results as an .xlsx workbook (decision 71): typed numbers, French labels for class and
 * gender, a frozen header row; written by write-excel-file (decision 71).
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
  return writeXlsxFile(data, {
    sheet: 'Résultats',
    stickyRowsCount: 1,
    columns: data[0].map((_, i) => ({ width: i < 2 ? 20 : 14 })),
  }).toBuffer();
}

/**
 * The whole chapter's grades for admins (decision 71), the columns of the grading CSV (docs/product.md#spec-9): e-mail,
 * names, class and gender in French, birth date as a date, the total and one column per exercise as numbers;
 * « X » for an excused copy, empty where there is no grade (no answer, not graded, awaiting arbitration).
 */
export async function chapterGradesWorkbook(table: GradingTable): Promise<Buffer> {
  const head = [...GRADES_EXPORT_HEADER, outOf('Total', table.maxTotal), ...table.exercises.map((e) => outOf(e.title, e.maxPoints))];
  const pupils = Object.values(table.users).sort(
    (a, b) => byText(a.lastName, b.lastName) || byText(a.firstName, b.firstName) || byText(a.email, b.email),
  );
  const data: Row[] = [
    head.map(header),
    ...pupils.map((u): Row => [
      text(u.email),
      text(u.firstName ?? ''),
      text(u.lastName ?? ''),
      text(u.grade ? (GRADE_LABELS[u.grade as Grade] ?? u.grade) : ''),
      text(u.gender ? (GENDER_LABELS[u.gender as Gender] ?? u.gender) : ''),
      u.birthDate ? { value: new Date(`${u.birthDate.slice(0, 10)}T00:00:00Z`), type: Date, format: 'dd/mm/yyyy' } : null,
      points(totalOf(u.data)),
      ...u.data.map((v) => (cellKind(v) === 'excused' ? text(CELL_EXCUSED) : points(cellNumber(v)))),
    ]),
  ];
  return writeXlsxFile(data, {
    sheet: 'Notes',
    stickyRowsCount: 1,
    columns: head.map((_, i) => ({ width: i === 0 ? 30 : i < 3 ? 20 : 14 })),
  }).toBuffer();
}

const collator = new Intl.Collator('fr', { sensitivity: 'base' });
const byText = (a: string | null, b: string | null) => collator.compare(a ?? '', b ?? '');
