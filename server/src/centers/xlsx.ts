import { CENTER_DAY_HEADERS, GRADE_LABELS, type CenterDayRow } from '@olympe/contract';
import writeXlsxFile, { type Row } from 'write-excel-file/node';
import type { ExamPupil } from './exam-pdfs.js';

const presence = (p: boolean | null | undefined) => (p === true ? 'présent' : p === false ? 'absent' : '');
/** Text cells only: nothing a pupil typed is ever read as a formula. */
const text = (value: string) => ({ value, type: String });

/**
 * The registered pupils of a centre as an .xlsx workbook (decision 81), written by write-excel-file as
 * the results are (decision 71): a bold header row that stays in view, French class labels.
 */
export async function registeredPupilsXlsx(pupils: ExamPupil[]): Promise<Buffer> {
  const data: Row[] = [
    ['Nom', 'Prénom', 'Classe', 'Établissement', 'Présence'].map((value) => ({ value, type: String, fontWeight: 'bold' as const })),
    ...pupils.map((p): Row => [
      text(p.lastName ?? ''),
      text(p.firstName ?? ''),
      text(p.grade ? ((GRADE_LABELS as Record<string, string>)[p.grade] ?? p.grade) : ''),
      text(p.school ?? ''),
      text(presence(p.present)),
    ]),
  ];
  return writeXlsxFile(data, {
    sheet: 'Inscrits',
    stickyRowsCount: 1,
    columns: [{ width: 20 }, { width: 20 }, { width: 12 }, { width: 30 }, { width: 12 }],
  }).toBuffer();
}

/** A count as a real number (a French spreadsheet sums it). */
const count = (value: number) => ({ value, type: Number, format: '0' });

/**
 * The exam-day table per centre (decision 81, admins): the same columns as the registrations page,
 * counts typed as numbers, centre names as text cells (never read as a formula).
 */
export async function centerDayXlsx(rows: CenterDayRow[]): Promise<Buffer> {
  const data: Row[] = [
    CENTER_DAY_HEADERS.map((value) => ({ value, type: String, fontWeight: 'bold' as const })),
    ...rows.map((r): Row => [
      text(r.name),
      count(r.registered),
      count(r.present),
      count(r.absent),
      count(r.copies),
      count(r.pagesSorted),
      text(r.followUp),
    ]),
  ];
  return writeXlsxFile(data, {
    sheet: 'Centres',
    stickyRowsCount: 1,
    columns: [{ width: 34 }, { width: 10 }, { width: 10 }, { width: 10 }, { width: 14 }, { width: 13 }, { width: 50 }],
  }).toBuffer();
}
