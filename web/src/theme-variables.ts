import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { THEME_PROVIDER_PROPS } from './theme';

const VARIABLES_STYLE = /<style data-mantine-styles="true"[^>]*>([\s\S]*?)<\/style>/;

/**
 * The theme's CSS variables exactly as Mantine's provider writes them, rendered once by Mantine itself at build
 * (decision 123). In the browser the provider computed them again at every start: thousands of variables merged
 * and compared with the defaults, one render of 100–150 ms on a phone that React cannot slice. They now come in the
 * stylesheet (vite-theme-variables.ts), and the app's provider writes none.
 */
export function themeVariablesCss(): string {
  const html = renderToStaticMarkup(createElement(MantineProvider, THEME_PROVIDER_PROPS, null));
  const css = VARIABLES_STYLE.exec(html)?.[1];
  if (!css) throw new Error('Mantine wrote no CSS variables for the theme');
  return css;
}
