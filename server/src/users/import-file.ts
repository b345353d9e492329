import os from 'node:os';
import { IMPORT_MAX_LINES } from '@olympe/contract';
import pLimit from 'p-limit';
import { Piscina } from 'piscina';
import { AppError, badRequest } from '../errors.js';
import type { Cell } from './import-rows.js';
import type { ImportOutcome, ImportTask } from './read-import.js';

/** An XLSX file is a zip: it starts with "PK\x03\x04". */
const isZip = (bytes: Buffer) => bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * Caps of the import threads (decision 132), as pdf-pool.ts's for PDFs: a few threads kept, a bounded
 * queue in front of them (beyond, 503), a heap and a time cap per file, and a budget of inflated bytes
 * that zlib checks while it inflates (the heap cap does not see Buffers). Mutable for the tests and the
 * bench (set before first use, or call closeImportPool() after a change).
 */
export const importLimits = {
  threads: Math.max(1, Math.min(2, os.availableParallelism())),
  /** Files waiting for a thread; each is 5 MB at most (IMPORT_MAX_BYTES): 16 waiting is 80 MB held. */
  maxQueue: 16,
  heapMb: 256,
  /** A 5 MB CSV reads in well under a second; a hostile workbook stops here. */
  timeoutMs: 20_000,
  /**
   * The XML of a workbook of 10,000 pupils (IMPORT_MAX_LINES) on 30 columns is ~15 MB; an XLSX bomb of
   * 1 MB inflates to gigabytes. Past this, refused in a few tens of milliseconds.
   */
  inflateBudget: 48 * 1024 * 1024,
  niceIncrement: 10,
};

const UNREADABLE = 'Ce fichier n’est pas lisible : enregistrez-le au format CSV (UTF-8) ou XLSX, puis réessayez.';
const TIMEOUT = 'La lecture de ce fichier prend trop de temps : enregistrez-le au format CSV, puis réessayez.';
export const IMPORT_BOMB_MESSAGE =
  'Ce classeur se décompresse en un volume anormal : il est refusé. Enregistrez-le au format CSV, puis réessayez.';
const MEMORY = 'Ce fichier demande trop de mémoire pour être lu : enregistrez-le au format CSV, puis réessayez.';
const BUSY = 'Le serveur lit déjà beaucoup de fichiers : réessayez dans une minute.';
const FAILURES: Record<string, string> = {
  NO_DATA: 'Ce classeur ne contient aucune ligne.',
  XLS: 'Les anciens fichiers Excel (.xls) ne sont pas lus : enregistrez-le au format XLSX ou CSV.',
  // Lines past the limit are not read one by one: the file is refused whole.
  TOO_MANY_LINES: `Ce fichier compte plus de ${IMPORT_MAX_LINES.toLocaleString('fr-FR')} lignes : découpez-le en plusieurs fichiers.`,
  BOMB: IMPORT_BOMB_MESSAGE,
};

interface Pool {
  threads: Piscina<ImportTask, ImportOutcome>;
  gate: ReturnType<typeof pLimit>;
  started: Promise<unknown>;
}
let current: Pool | null = null;

function open(): Pool {
  if (!current) {
    const threads = new Piscina<ImportTask, ImportOutcome>({
      filename: new URL('./import-worker.mjs', import.meta.url).href,
      minThreads: importLimits.threads,
      maxThreads: importLimits.threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      niceIncrement: importLimits.niceIncrement,
      resourceLimits: { maxOldGenerationSizeMb: importLimits.heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    current = {
      threads,
      // A file reaches piscina only when a thread is free: its time cap counts its read, not its wait.
      gate: pLimit(importLimits.threads),
      started: Promise.allSettled(Array.from({ length: importLimits.threads }, () => threads.run({ kind: 'ping' }))),
    };
  }
  return current;
}

/** Stops the threads (app close); the next import opens a new pool. */
export async function closeImportPool(): Promise<void> {
  const closing = current;
  current = null;
  await closing?.threads.destroy();
}

/**
 * The cells of a pupils' file, header first: CSV (import-csv.ts) or XLSX (first sheet), read in a
 * thread of the pool; a refusal is a French 400 (503 when the queue is full).
 */
export async function readImportFile(bytes: Buffer): Promise<Cell[][]> {
  const { threads, gate, started } = open();
  if (gate.pendingCount >= importLimits.maxQueue) throw new AppError(503, BUSY);
  const outcome = await gate(async () => {
    await started;
    const signal = AbortSignal.timeout(importLimits.timeoutMs);
    // A copy handed over rather than cloned, as pdf-pool.ts does.
    const copy = new Uint8Array(bytes);
    const task: ImportTask = {
      kind: isZip(bytes) ? 'xlsx' : 'csv',
      bytes: copy,
      maxLines: IMPORT_MAX_LINES,
      inflateBudget: importLimits.inflateBudget,
    };
    try {
      return await threads.run(task, { signal, transferList: [copy.buffer] });
    } catch (err) {
      if (signal.aborted) throw badRequest(TIMEOUT);
      const e = err as { code?: string; message?: string };
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /memory limit/i.test(e.message ?? '')) throw badRequest(MEMORY);
      throw badRequest(UNREADABLE);
    }
  });
  if ('rows' in outcome) return outcome.rows;
  if (outcome.ok) throw new Error('unexpected import worker answer');
  throw badRequest(FAILURES[outcome.code] ?? UNREADABLE);
}
