import ReactMarkdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import rehypeSanitize from 'rehype-sanitize';
import remarkMath from 'remark-math';
import { fenceDisplayMath, KATEX_OPTIONS, RICH_TEXT_SCHEMA, safeUrl } from '@olympe/rich-text';
import 'katex/dist/katex.min.css';

/**
 * The heavy half of MathText (its own chunk: KaTeX and the Markdown pipeline load only where math is shown). The
 * pipeline's settings are rich-text/src/index.ts's, which the server's renderer shares (decision 122).
 */
export default function MathRender({ value }: { value: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkMath]}
      rehypePlugins={[
        [rehypeSanitize, RICH_TEXT_SCHEMA],
        [rehypeKatex, KATEX_OPTIONS],
      ]}
      urlTransform={safeUrl}
    >
      {fenceDisplayMath(value)}
    </ReactMarkdown>
  );
}
