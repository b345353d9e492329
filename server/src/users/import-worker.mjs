// Entry of the import worker threads (import-file.ts): a 5 MB CSV or a spreadsheet (a zip of XML)
// must cost a thread of the pool, within its heap, time and inflate caps, never the event loop.
// Plain JavaScript that registers tsx itself, as pdf/pdf-worker.mjs does.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./read-import.ts', import.meta.url);

export default worker.default;
