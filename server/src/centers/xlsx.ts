import { GRADE_LABELS } from '@olympe/contract';
import writeXlsxFile, { type Row } from 'write-excel-file/node';
import type { ExamPupil } from './exam-pdfs.js';

const presence = (p: boolean | null | undefined) => (p === true ? 'présent' : p === false ? 'absent' : '');
/** Text cells only: nothing a pupil typed is ever read as a formula. */
const text = (value: string) => ({ value, type: String });

/**
 * The registered pupils of a centre as an .xlsx workbook (issue 22), written by write-excel-file as
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
  return writeXlsxFile(data, { sheet: 'Inscrits', stickyRowsCount: 1, columns: [{ width: 20 }, { width: 20 }, { width: 12 }, { width: 30 }, { width: 12 }] }).toBuffer();
}
