import { gradeFromItems, type Person, type SchemeItem } from '@olympe/contract';

/** A person as grading shows them: the pseudonym under anonymous correction, else « Prénom Nom ». */
export function personName(person: Pick<Person, 'firstName' | 'lastName' | 'pseudonym'> | null | undefined): string {
  if (!person) return '';
  if (person.pseudonym) return person.pseudonym;
  return `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim();
}

/** Whether a stored grade was typed by hand rather than being the sum of its ticked items. */
export function isTypedGrade(grade: string | null | undefined, scheme: readonly SchemeItem[], ticked: readonly string[]): boolean {
  if (grade === null || grade === undefined || grade === '') return false;
  if (ticked.length === 0) return true;
  return Number(grade) !== Number(gradeFromItems(scheme, ticked));
}

/**
 * Ticking or unticking a marking-scheme item (decision 65): the grade follows the sum of the ticked
 * items unless the corrector typed a grade by hand, which then stays as typed.
 */
export function tickItem(
  form: { grade: string; items: readonly string[] },
  scheme: readonly SchemeItem[],
  id: string,
  checked: boolean,
  typed: boolean,
): { grade: string; items: string[] } {
  const items = checked ? [...form.items.filter((i) => i !== id), id] : form.items.filter((i) => i !== id);
  // Kept in the scheme's order, so the same ticks always compare (and store) the same.
  const ordered = scheme.map((s) => s.id).filter((s) => items.includes(s));
  if (typed) return { grade: form.grade, items: ordered };
  return { grade: ordered.length > 0 ? gradeFromItems(scheme, ordered) : '', items: ordered };
}
