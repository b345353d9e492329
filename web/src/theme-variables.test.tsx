import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AppFrame, newQueryClient } from './app';
import { themeVariablesCss } from './theme-variables';

describe('the theme’s CSS variables, written at build (decision 123)', () => {
  it('are those of the theme: AA dimmed text and error red, the primary shade 9, the pointer cursor', () => {
    const css = themeVariablesCss();
    expect(css).toContain('--mantine-color-dimmed: #495057');
    expect(css).toContain('--mantine-color-error: #c92a2a');
    expect(css).toContain('--mantine-color-blue-filled: var(--mantine-color-blue-9)');
    expect(css).toContain('--mantine-cursor-type: pointer');
  });

  it('are not computed again by the app’s provider, which writes only its global classes', () => {
    const html = renderToStaticMarkup(
      <AppFrame client={newQueryClient()}>
        <p>page</p>
      </AppFrame>,
    );
    expect(html).toContain('<p>page</p>');
    expect(html).toContain('data-mantine-styles="classes"');
    expect(html).not.toContain('data-mantine-styles="true"');
    expect(html).not.toContain('--mantine-color-dimmed');
  });
});
