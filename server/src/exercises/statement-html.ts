import { richTextHtml } from '@olympe/rich-text/html';

/** Texts drawn, by source: a chapter's statements are the same for thousands of pupils (the start-of-test rush). */
const drawn = new Map<string, string>();
const KEPT = 2000;

/**
 * Decision 122: a statement or instructions as sanitised HTML, drawn once per process and text (most recently
 * used kept), a few milliseconds the first time. Undefined if it cannot be drawn: the browser then draws it.
 */
export function statementHtml(text: string): string | undefined {
  let html = drawn.get(text);
  if (html !== undefined) {
    drawn.delete(text);
  } else {
    try {
      html = richTextHtml(text);
    } catch {
      return undefined;
    }
    if (drawn.size >= KEPT) drawn.delete(drawn.keys().next().value!);
  }
  drawn.set(text, html);
  return html;
}
