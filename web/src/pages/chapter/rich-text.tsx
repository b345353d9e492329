import { MathText } from '../../components/MathText';

/** Statements, instructions and comments: the shared rich-text block (Markdown + KaTeX), read-only. */
export function RichText({ content, label = 'Texte' }: { content: string; label?: string }) {
  return <MathText value={content} label={label} />;
}
