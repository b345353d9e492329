// The statement drawing thread of statement-html.ts's pool: Markdown and KaTeX formulas (rich-text/src/html.ts)
// drawn here, within the thread's heap cap and each text's time cap, never on the event loop. Plain JavaScript that
// registers tsx itself, as pdf-worker.mjs does; the thread is kept between texts, so the code loads once.
import { tsImport } from 'tsx/esm/api';

const { richTextHtml } = await tsImport('@olympe/rich-text/html', import.meta.url);

/** A text's HTML, or null when it cannot be drawn here (the browser draws it). `null` in: the thread's start. */
export default function draw(text) {
  if (text === null) return null;
  try {
    return richTextHtml(text);
  } catch {
    return null;
  }
}
