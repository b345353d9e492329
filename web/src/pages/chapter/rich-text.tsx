import { Box } from '@mantine/core';
import { MathText } from '../../components/MathText';
import classes from '../../components/MathText/MathText.module.css';
// The formulas' styles come with the page that shows the server's HTML; their fonts load when a formula shows.
import 'katex/dist/katex.min.css';

/**
 * Statements, instructions and comments: the shared rich-text block (Markdown + KaTeX), read-only. Decision 122:
 * where the server sent the text drawn (`html`, sanitised by the server with the browser's own pipeline), it is
 * shown as is, at once, and the phone neither downloads nor runs KaTeX and the Markdown parser; otherwise
 * MathText draws `content`.
 */
export function RichText({ content, html, label = 'Texte' }: { content: string; html?: string; label?: string }) {
  if (html === undefined) return <MathText value={content} label={label} />;
  // Sanitised by the server (rich-text/src/html.ts) before KaTeX runs, as MathText sanitises it.
  return <Box className={classes.math} aria-label={label} role="group" dangerouslySetInnerHTML={{ __html: html }} />;
}
