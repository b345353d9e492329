import { Children, isValidElement, type ReactNode } from 'react';
import { Title } from '@mantine/core';
import { usePageTitle } from '../hooks/use-page-title';

/** The visible words of a heading's children (strings, numbers, nested elements' children). */
function textOf(node: ReactNode): string {
  return Children.toArray(node)
    .map((child) => {
      if (typeof child === 'string' || typeof child === 'number') return String(child);
      if (isValidElement<{ children?: ReactNode }>(child)) return textOf(child.props.children);
      return '';
    })
    .join('');
}

/** The page's h1; the browser tab carries the same words, so the two never drift apart. */
export function PageHeading({ children }: { children: ReactNode }) {
  // Plain spaces and line breaks are folded; the no-break ones of French typography stay in the tab’s title.
  usePageTitle(
    textOf(children)
      .replace(/[ \t\r\n]+/g, ' ')
      .trim() || undefined,
  );
  return <Title order={1}>{children}</Title>;
}
