import type { Plugin } from 'vite';
import { themeVariablesCss } from './src/theme-variables';

/** Imported by main.tsx after Mantine's stylesheet: the theme's CSS variables, written at build (decision 123). */
const ID = 'virtual:olympe-theme-variables.css';

export function themeVariables(): Plugin {
  return {
    name: 'olympe-theme-variables',
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    load: (id) => (id === `\0${ID}` ? themeVariablesCss() : undefined),
  };
}
