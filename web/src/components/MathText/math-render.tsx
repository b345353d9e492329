import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import remarkMath from 'remark-math';
import 'katex/dist/katex.min.css';

/**
 * The heavy half of MathText (its own chunk: KaTeX and the Markdown pipeline load only where
 * math is shown). Raw HTML is never rendered (no rehype-raw); the Markdown tree is sanitised
 * BEFORE KaTeX runs, so only KaTeX's own markup carries styles; math classes are kept for it.
 */
const schema: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
};

/** Links keep only safe protocols (http, https, mailto, relative); anything else becomes empty. */
function safeUrl(url: string): string {
  const cleaned = defaultUrlTransform(url);
  return /^(javascript|vbscript|data):/i.test(cleaned.replace(/[\s\u0000-\u001f]/g, '')) ? '' : cleaned;
}

/**
 * remark-math only displays `$$…$$` fenced on lines of their own; authors (and the LaTeX export)
 * treat any `$$…$$` as display math, so it is put on its own lines first.
 */
export function fenceDisplayMath(value: string): string {
  return value.replace(/(^|[^\\])\$\$([\s\S]+?)\$\$/g, (_m, before: string, body: string) => `${before}\n$$\n${body.trim()}\n$$\n`);
}

export default function MathRender({ value }: { value: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkMath]}
      rehypePlugins={[
        [rehypeSanitize, schema],
        // trust: false (the default) refuses \href{javascript:…} and \includegraphics in formulas.
        [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false, output: 'htmlAndMathml' }],
      ]}
      urlTransform={safeUrl}
    >
      {fenceDisplayMath(value)}
    </ReactMarkdown>
  );
}
