import type { LabelResult } from '@olympe/contract';

/** Rows → the contract's sorting shapes (docs/architecture.md « Response shaping »). */

/** Decision 139: the message's note on graded copies that received pages. */
function keptGrades(k: number): string {
  if (k === 0) return '';
  return k === 1
    ? ' 1 copie déjà notée garde sa note : ses correcteurs sont prévenus des pages ajoutées.'
    : ` ${k} copies déjà notées gardent leur note : leurs correcteurs sont prévenus des pages ajoutées.`;
}

/** POST /answer/label/{answerId}: what was made of the scan, each part with the answer it became. */
export function presentLabelResult(input: {
  made: Array<{ fileId: string; user: string; exercise: string; pages: Array<{ pageNum: number }> }>;
  created: Array<{ id: string; file_id: string }>;
  blanks: number;
  keptGrades: number;
}): LabelResult {
  const { made, blanks } = input;
  const byFile = new Map(input.created.map((r) => [r.file_id, r.id]));
  const n = made.length;
  const dropped =
    blanks === 0 ? '' : `, ${blanks} page${blanks > 1 ? 's' : ''} blanche${blanks > 1 ? 's' : ''} écartée${blanks > 1 ? 's' : ''}`;
  return {
    message:
      (n === 0
        ? `Copie triée : aucune page attribuée${dropped}.`
        : `Copie triée : ${n} copie${n > 1 ? 's' : ''} enregistrée${n > 1 ? 's' : ''}${dropped}.`) + keptGrades(input.keptGrades),
    answers: made.map((m) => ({
      _id: byFile.get(m.fileId) ?? '',
      user: m.user,
      exercise: m.exercise,
      answer: `pdfs/${m.fileId}.pdf`,
      pages: m.pages.map((p) => p.pageNum),
    })),
  };
}
