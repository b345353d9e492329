import { toHtml } from 'hast-util-to-html';
import rehypeKatex from 'rehype-katex';
import rehypeSanitize from 'rehype-sanitize';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { fenceDisplayMath, KATEX_OPTIONS, RICH_TEXT_SCHEMA } from './index';

/**
 * Decision 122: a statement drawn by the server, as the browser's MathText draws it (the same plugins, in the
 * same order, as react-markdown composes them), so that a pupil's phone downloads and runs neither KaTeX nor the
 * Markdown parser. React-markdown's last pass (raw HTML as text, links through `safeUrl`) has nothing left to do
 * here: the sanitiser, before KaTeX, already dropped raw HTML and unsafe links (server-parity.test.tsx compares
 * both). Server only, in a worker thread (server/src/exercises/statement-worker.mjs).
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkMath)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeSanitize, RICH_TEXT_SCHEMA)
  .use(rehypeKatex, KATEX_OPTIONS);

/** The HTML of a rich text (Markdown with $…$ and $$…$$ formulas), sanitised. */
export function richTextHtml(markdown: string): string {
  return toHtml(processor.runSync(processor.parse(fenceDisplayMath(markdown))));
}
