import { Worker } from 'node:worker_threads';
import { IMPORT_MAX_LINES } from '@olympe/contract';
import { badRequest } from '../errors.js';
import { CsvParser } from '../institutions/import.js';
import type { Cell } from './import-rows.js';

/** An XLSX file is a zip: it starts with "PK\x03\x04". */
const isZip = (bytes: Buffer) => bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
/** The old binary .xls (OLE2) is not read: the user is told to save as .xlsx or .csv. */
const isOle2 = (bytes: Buffer) => bytes.length > 8 && bytes.readUInt32BE(0) === 0xd0cf11e0;

export const XLSX_LIMITS = { timeoutMs: 20_000, heapMb: 256 };

const UNREADABLE = 'Ce fichier n’est pas lisible : enregistrez-le au format CSV (UTF-8) ou XLSX, puis réessayez.';

/**
 * The cells of a pupils' file, header first: CSV (separator ; , or tab, UTF-8 or the Windows
 * encoding Excel uses in France) read here, XLSX (first sheet) read in a worker thread.
 */
export async function readImportFile(bytes: Buffer): Promise<Cell[][]> {
  const rows = isZip(bytes) ? await readXlsx(bytes) : readCsv(bytes);
  // Lines past the limit are not read one by one: the file is refused whole.
  if (rows.length - 1 > IMPORT_MAX_LINES) {
    throw badRequest(`Ce fichier compte plus de ${IMPORT_MAX_LINES.toLocaleString('fr-FR')} lignes : découpez-le en plusieurs fichiers.`);
  }
  return rows;
}

function readCsv(bytes: Buffer): Cell[][] {
  if (isOle2(bytes)) throw badRequest('Les anciens fichiers Excel (.xls) ne sont pas lus : enregistrez-le au format XLSX ou CSV.');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: Excel's « CSV (séparateur : point-virgule) » in France is Windows-1252.
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  if (text.includes('\u0000')) throw badRequest(UNREADABLE);
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length);
  const count = (c: string) => firstLine.split(c).length - 1;
  const separator = [';', '\t', ','].reduce((best, c) => (count(c) > count(best) ? c : best), ';');
  const parser = new CsvParser(separator);
  return [...parser.push(text), ...parser.end()];
}

function readXlsx(bytes: Buffer): Promise<Cell[][]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./xlsx-worker.mjs', import.meta.url), {
      workerData: { bytes },
      resourceLimits: { maxOldGenerationSizeMb: XLSX_LIMITS.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(badRequest('La lecture de ce fichier prend trop de temps : enregistrez-le au format CSV, puis réessayez.'));
    }, XLSX_LIMITS.timeoutMs);
    worker.once('message', (out: { ok: true; rows: Cell[][] } | { ok: false; code: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (out.ok) resolve(out.rows);
      else reject(badRequest(out.code === 'NO_DATA' ? 'Ce classeur ne contient aucune ligne.' : UNREADABLE));
    });
    worker.once('error', () => {
      clearTimeout(timer);
      reject(badRequest(UNREADABLE));
    });
  });
}
