import { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';

/**
 * The one Markdown and formula pipeline of statements, instructions and comments (docs/product.md#style (§12)),
 * shared by the browser's renderer (web/src/components/MathText/math-render.tsx) and the server's
 * (./html.ts, decision 122), so that a statement reads the same whichever drew it. Raw HTML is never
 * rendered (no rehype-raw); the Markdown tree is sanitised BEFORE KaTeX runs, so only KaTeX's own markup carries
 * styles; math classes are kept for it.
 */
export const RICH_TEXT_SCHEMA: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
};

/**
 * KaTeX's settings, for the server's renderer and the browser's alike. trust: false (the default) refuses
 * \href{javascript:…} and \includegraphics in formulas; maxSize caps every size a formula asks for (\rule, \kern,
 * \hspace, \raisebox) at 20 em, so that a comment cannot draw a black box over a pupil's page; maxExpand stops a
 * macro loop (\def\a{\a\a}\a) after 1000 expansions, the error shown as text (decision 137).
 */
export const KATEX_OPTIONS = {
  throwOnError: false,
  strict: 'ignore',
  trust: false,
  maxSize: 20,
  maxExpand: 1000,
  output: 'htmlAndMathml',
} as const;

const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * Links keep only safe protocols (http, https, mailto, relative); anything else becomes empty. The first test is
 * react-markdown's `defaultUrlTransform` (a scheme before any `/`, `?` or `#` must be a safe one); the second
 * refuses script schemes hidden by spaces or control characters.
 */
export function safeUrl(url: string): string {
  const colon = url.indexOf(':');
  const before = (mark: string) => {
    const at = url.indexOf(mark);
    return at !== -1 && colon > at;
  };
  const kept = colon === -1 || before('/') || before('?') || before('#') || SAFE_PROTOCOL.test(url.slice(0, colon)) ? url : '';
  return /^(javascript|vbscript|data):/i.test(kept.replace(/[\s\u0000-\u001f]/g, '')) ? '' : kept;
}

/**
 * remark-math only displays `$$…$$` fenced on lines of their own; authors (and the LaTeX export)
 * treat any `$$…$$` as display math, so it is put on its own lines first.
 */
export function fenceDisplayMath(value: string): string {
  return value.replace(/(^|[^\\])\$\$([\s\S]+?)\$\$/g, (_m, before: string, body: string) => `${before}\n$$\n${body.trim()}\n$$\n`);
}
