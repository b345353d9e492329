// Entry of the PDF worker threads (pdf-pool.ts). Plain JavaScript because a worker does not
// inherit the parent's TypeScript loader in every setting (vitest runs its own), so it registers
// tsx itself; under `node --import tsx` this is a second, scoped registration, which is harmless.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./pdf-worker.ts', import.meta.url);

export default worker.default;
