/**
 * The one text normaliser (docs/product.md#style (§12)): accent- and case-insensitive matching for every search box
 * and filter. Decomposes (NFD), drops combining marks, lower-cases, folds spaces.
 */
export function normalizeText(s: string | null | undefined): string {
  return (s ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** True when every word of the query appears in one of the fields (normalised). */
export function matchesQuery(query: string, ...fields: Array<string | null | undefined>): boolean {
  const words = normalizeText(query).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = fields.map(normalizeText).join(' ');
  return words.every((w) => haystack.includes(w));
}
