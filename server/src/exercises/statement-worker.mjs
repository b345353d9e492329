// Draws statements (Markdown and KaTeX formulas, rich-text/src/html.ts) in a worker thread
// (exercises/statement-html.ts): a long or deeply nested text costs this thread seconds, within its heap and
// time caps, never the event loop. Plain JavaScript that registers tsx itself, as users/import-worker.mjs does.
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { richTextHtml } = await tsImport('@olympe/rich-text/html', import.meta.url);
for (const text of workerData.texts) {
  let html = null;
  try {
    html = richTextHtml(text);
  } catch {
    // Not drawn here: the browser draws it.
  }
  parentPort.postMessage({ text, html });
}
parentPort.postMessage({ done: true });
