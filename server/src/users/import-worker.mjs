// Reads a pupils' file in a worker thread (users/import-file.ts): a 5 MB CSV or a spreadsheet (a zip
// of XML) must cost this thread, within its heap and time caps, never the event loop. Plain
// JavaScript that registers tsx itself, as pdf/pdf-worker.mjs does, to read the CSV with the TS parser.
import { parentPort, workerData } from 'node:worker_threads';
import { readSheet } from 'read-excel-file/node';
import { tsImport } from 'tsx/esm/api';

const codeOf = (err) => (err && typeof err === 'object' && 'code' in err ? String(err.code) : '');

try {
  const bytes = Buffer.from(workerData.bytes);
  let rows;
  if (workerData.kind === 'xlsx') rows = await readSheet(bytes);
  else {
    const { parseCsvCells } = await tsImport('./import-csv.ts', import.meta.url);
    rows = parseCsvCells(bytes);
  }
  // Refused here rather than after the rows cross to the main thread, whose copy of a
  // 75,000-line file held the event loop ~0.8 s.
  if (rows.length - 1 > workerData.maxLines) parentPort.postMessage({ ok: false, code: 'TOO_MANY_LINES' });
  else parentPort.postMessage({ ok: true, rows });
} catch (err) {
  parentPort.postMessage({ ok: false, code: codeOf(err) });
}
