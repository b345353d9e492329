import { ArchiveBombError, ArchiveReadError, unzipWithin } from '../files/unzip-within.js';
import { parseCsvCells } from './import-csv.js';
import type { Cell } from './import-rows.js';

/**
 * A pupils' file read in a thread of import-file.ts's pool (never on the event loop). An XLSX is
 * unzipped by unzip-within.ts, whose cap stops a bomb while it inflates (decision 132); its XML is
 * then read by read-excel-file, from the inflated entries, so the archive is opened once.
 */

export type ImportTask =
  | { kind: 'csv' | 'xlsx'; bytes: Uint8Array; maxLines: number; inflateBudget: number }
  /** Answered once the thread has loaded this module (the pool waits for it before any time cap). */
  | { kind: 'ping' };

export type ImportOutcome = { ok: true; rows: Cell[][] } | { ok: true; ready: true } | { ok: false; code: string };

type ParseSheet = (createWorker: undefined, parseXml: unknown, contents: Record<string, Uint8Array>) => Promise<Cell[][]>;

// read-excel-file reads a sheet from the archive's entries in these modules, which its `exports` hide
// (its public readSheet unzips by itself, with no cap): imported by URL, as pdf-worker.ts does with
// pdf-lib's ByteStream. A read-excel-file that moves them makes the thread fail to start, loudly.
const entry = import.meta.resolve('read-excel-file/node');
const { default: parseSheet } = (await import(new URL('../modules/export/parseSheet.js', entry).href)) as { default: ParseSheet };
const { default: parseXml } = (await import(new URL('../modules/xml/parseXml.js', entry).href)) as { default: unknown };

/** An XLSX lists a few dozen entries; thousands are no spreadsheet. */
const MAX_ENTRIES = 2000;

/** What read-excel-file reads of an archive: XML and relationships, never pictures or printer settings. */
const isXml = (name: string) => name.endsWith('.xml') || name.endsWith('.xml.rels');

const codeOf = (err: unknown) => (err && typeof err === 'object' && 'code' in err ? String(err.code) : '');

export default async function readImportTask(task: ImportTask): Promise<ImportOutcome> {
  if (task.kind === 'ping') return { ok: true, ready: true };
  try {
    let rows: Cell[][];
    if (task.kind === 'xlsx') {
      const contents = unzipWithin(task.bytes, { budget: task.inflateBudget, maxEntries: MAX_ENTRIES, wanted: isXml });
      rows = await parseSheet(undefined, parseXml, contents);
    } else {
      rows = parseCsvCells(task.bytes);
    }
    // Refused here rather than after the rows cross to the main thread, whose copy of a
    // 75,000-line file held the event loop ~0.8 s.
    if (rows.length - 1 > task.maxLines) return { ok: false, code: 'TOO_MANY_LINES' };
    return { ok: true, rows };
  } catch (err) {
    if (err instanceof ArchiveBombError) return { ok: false, code: 'BOMB' };
    if (err instanceof ArchiveReadError) return { ok: false, code: 'UNREADABLE' };
    return { ok: false, code: codeOf(err) };
  }
}
