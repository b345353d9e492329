/**
 * The one CSV writer of the app (docs/product.md#style (§12)). docs/product.md#spec-9: semicolon-separated, every field quoted,
 * quotes doubled. A UTF-8 byte-order mark lets spreadsheet software read accents right, and a cell
 * starting with = + - @ (or a tab / carriage return) is prefixed with ' so it is never run as a
 * formula (docs/product.md#design-4, CSV injection).
 */
export const CSV_SEPARATOR = ';';
export const CSV_BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | boolean | null | undefined;

/** One cell: neutralised, quoted, inner quotes doubled; null and undefined give an empty field. */
export function csvCell(value: CsvCell): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** The whole file: BOM, one line per row (CRLF, as RFC 4180 and spreadsheet software expect). */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return CSV_BOM + rows.map((row) => row.map(csvCell).join(CSV_SEPARATOR)).join('\r\n') + '\r\n';
}

/** Makes a file name safe on every system while keeping accents and spaces. */
export function safeFileName(name: string): string {
  return name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim() || 'export';
}

/** Builds the CSV and lets the browser download it under `filename`. */
export function downloadCsv(filename: string, rows: readonly (readonly CsvCell[])[]): void {
  const blob = new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = safeFileName(filename);
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke later: some browsers start reading the blob only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
