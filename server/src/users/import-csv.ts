import { CsvParser } from '../institutions/csv-parser.js';
import type { Cell } from './import-rows.js';

/** Why a file could not be read; import-file.ts says it in French. */
export class ImportReadError extends Error {
  constructor(readonly code: 'XLS' | 'UNREADABLE') {
    super(code);
  }
}

/** The old binary .xls (OLE2) is not read: the user is told to save as .xlsx or .csv. */
const isOle2 = (bytes: Uint8Array) => bytes.length > 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;

/**
 * The cells of a CSV pupils' file, header first: separator ; , or tab (the one the first line uses
 * most), UTF-8 or the Windows encoding Excel uses in France. Runs in the import worker.
 */
export function parseCsvCells(bytes: Uint8Array): Cell[][] {
  if (isOle2(bytes)) throw new ImportReadError('XLS');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: Excel's « CSV (séparateur : point-virgule) » in France is Windows-1252.
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  if (text.includes('\u0000')) throw new ImportReadError('UNREADABLE');
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length);
  const count = (c: string) => firstLine.split(c).length - 1;
  const separator = [';', '\t', ','].reduce((best, c) => (count(c) > count(best) ? c : best), ';');
  const parser = new CsvParser(separator);
  return [...parser.push(text), ...parser.end()];
}
