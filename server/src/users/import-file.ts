import { Worker } from 'node:worker_threads';
import { IMPORT_MAX_LINES } from '@olympe/contract';
import { badRequest } from '../errors.js';
import type { Cell } from './import-rows.js';

/** An XLSX file is a zip: it starts with "PK\x03\x04". */
const isZip = (bytes: Buffer) => bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
/** Caps of the import worker: a 5 MB CSV reads in well under a second; a hostile workbook stops here. */
export const IMPORT_LIMITS = { timeoutMs: 20_000, heapMb: 256 };

const UNREADABLE = 'Ce fichier n’est pas lisible : enregistrez-le au format CSV (UTF-8) ou XLSX, puis réessayez.';
const FAILURES: Record<string, string> = {
  NO_DATA: 'Ce classeur ne contient aucune ligne.',
  XLS: 'Les anciens fichiers Excel (.xls) ne sont pas lus : enregistrez-le au format XLSX ou CSV.',
  // Lines past the limit are not read one by one: the file is refused whole.
  TOO_MANY_LINES: `Ce fichier compte plus de ${IMPORT_MAX_LINES.toLocaleString('fr-FR')} lignes : découpez-le en plusieurs fichiers.`,
};

/**
 * The cells of a pupils' file, header first: CSV (import-csv.ts) or XLSX (first sheet), both read
 * in a worker thread with a heap and a time cap.
 */
export async function readImportFile(bytes: Buffer): Promise<Cell[][]> {
  return readInWorker(bytes, isZip(bytes) ? 'xlsx' : 'csv');
}

function readInWorker(bytes: Buffer, kind: 'csv' | 'xlsx'): Promise<Cell[][]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./import-worker.mjs', import.meta.url), {
      workerData: { bytes, kind, maxLines: IMPORT_MAX_LINES },
      resourceLimits: { maxOldGenerationSizeMb: IMPORT_LIMITS.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(badRequest('La lecture de ce fichier prend trop de temps : enregistrez-le au format CSV, puis réessayez.'));
    }, IMPORT_LIMITS.timeoutMs);
    worker.once('message', (out: { ok: true; rows: Cell[][] } | { ok: false; code: string }) => {
      clearTimeout(timer);
      void worker.terminate();
      if (out.ok) resolve(out.rows);
      else reject(badRequest(FAILURES[out.code] ?? UNREADABLE));
    });
    worker.once('error', () => {
      clearTimeout(timer);
      reject(badRequest(UNREADABLE));
    });
  });
}
