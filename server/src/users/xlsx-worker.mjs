// Reads the first sheet of an XLSX file in a worker thread (users/import-file.ts): a spreadsheet is
// a zip of XML, and a large or hostile one must cost this thread, never the event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { readSheet } from 'read-excel-file/node';

try {
  const rows = await readSheet(Buffer.from(workerData.bytes));
  parentPort.postMessage({ ok: true, rows });
} catch (err) {
  parentPort.postMessage({ ok: false, code: err && typeof err === 'object' && 'code' in err ? String(err.code) : '', message: String(err && err.message) });
}
