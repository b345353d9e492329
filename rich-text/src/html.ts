import type { Nodes, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { urlAttributes } from 'html-url-attributes';
import rehypeKatex from 'rehype-katex';
import rehypeSanitize from 'rehype-sanitize';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { fenceDisplayMath, KATEX_OPTIONS, RICH_TEXT_SCHEMA, safeUrl } from './index';

/**
 * Decision 122: a statement drawn by the server, as the browser's MathText draws it (the same plugins, in the
 * same order, as react-markdown composes them, and the same last pass: raw HTML as text, links through
 * `safeUrl`), so that a pupil's phone downloads and runs neither KaTeX nor the Markdown parser. Server only: the
 * browser never imports this file.
 */
const processor = unified()
  .use(remarkParse)
  .use(remarkMath)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeSanitize, RICH_TEXT_SCHEMA)
  .use(rehypeKatex, KATEX_OPTIONS);

function finish(tree: Root) {
  visit(tree, (node: Nodes, index, parent) => {
    if (node.type === 'raw' && parent && typeof index === 'number') {
      parent.children[index] = { type: 'text', value: node.value };
      return index;
    }
    if (node.type !== 'element') return;
    for (const [key, tags] of Object.entries(urlAttributes)) {
      if (Object.hasOwn(node.properties, key) && (tags === null || tags.includes(node.tagName))) {
        node.properties[key] = safeUrl(String(node.properties[key] ?? ''));
      }
    }
  });
}

/** The HTML of a rich text (Markdown with $…$ and $$…$$ formulas), sanitised. */
export function richTextHtml(markdown: string): string {
  const tree = processor.runSync(processor.parse(fenceDisplayMath(markdown)));
  finish(tree);
  return toHtml(tree);
}
