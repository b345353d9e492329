import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/**
 * Shade 9 for every filled colour: Mantine's default shade 6 gives white text a contrast below
 * the WCAG AA 4.5:1 (e.g. blue.6 on white is about 3.6:1).
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 9, dark: 8 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'sm',
  cursorType: 'pointer',
});

/** Mantine's "dimmed" text (gray.6) is about 3.3:1 on white; gray.7 passes AA. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7] },
  dark: {},
});
