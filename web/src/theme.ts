import {
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type MantineThemeComponent,
  type PasswordInputProps,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Shade 9 for every filled colour: Mantine's default shade 6 gives white text a contrast below
 * the WCAG AA 4.5:1 (e.g. blue.6 on white is about 3.6:1).
 */
/**
 * Light buttons: Mantine's hover background (shade 6 at 15 %) under shade-9 text falls to about 4:1
 * (axe, /grader after a click). Lighter backgrounds keep the text above 4.5:1 at rest and on hover.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const base = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return base;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return base;
  return {
    ...base,
    background: `var(--mantine-color-${parsed.color}-0)`,
    hover: `var(--mantine-color-${parsed.color}-1)`,
    color: `var(--mantine-color-${parsed.color}-9)`,
  };
};

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'blue',
  primaryShade: { light: 9, dark: 8 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'sm',
  cursorType: 'pointer',
  components: {
    // Mantine names the show-password button in English; it is a toggle (aria-pressed), so one French name.
    // A plain object, not `PasswordInput.extend(…)` (the same value): that import put the whole field in the first load.
    PasswordInput: {
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': 'Afficher le mot de passe' } } satisfies Partial<PasswordInputProps>,
    } satisfies MantineThemeComponent,
  },
});

/**
 * Mantine's "dimmed" text (gray.6) is about 3.3:1 on white; gray.7 passes AA. Its error red (red.6,
 * field errors and invalid borders) is about 3.6:1; red.9 is about 5.9:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7], '--mantine-color-error': t.colors.red[9] },
  dark: {},
});

/** The provider's props the theme is made of: app.tsx gives them, and theme-variables.ts writes their CSS variables. */
export const THEME_PROVIDER_PROPS = { theme, cssVariablesResolver, defaultColorScheme: 'light' } as const;
