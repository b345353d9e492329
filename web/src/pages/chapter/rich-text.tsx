import { Text } from '@mantine/core';

/**
 * Statements, instructions and comments are rich text (Markdown + KaTeX).
 * TODO: render with the shared `MathText` (web/src/components/MathText) once it lands; until
 * then the text is shown as is, line breaks kept, never as HTML.
 */
export function RichText({ content }: { content: string }) {
  return <Text style={{ whiteSpace: 'pre-wrap' }}>{content}</Text>;
}
