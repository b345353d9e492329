import { describe, expect, it } from 'vitest';
import { richTextHtml } from './html';

/** The sizes, in em, of what KaTeX draws: its inline styles only (the formula's source is also in the MathML). */
function drawnSizes(html: string): number[] {
  return [...html.matchAll(/style="([^"]*)"/g)].flatMap(([, style]) => [...style.matchAll(/(-?[\d.]+)em/g)].map(([, n]) => Number(n)));
}

/**
 * Decision 137: a comment, a statement or a marking-scheme label is drawn by KaTeX on a pupil's page, by the server
 * (html.ts) and by the browser (MathText), both with KATEX_OPTIONS (./index.ts). No formula may draw a page-sized box over it,
 * nor hold the page with an endless macro.
 */
describe('KaTeX limits shared by the server and the browser', () => {
  it('caps every size a formula asks for at maxSize (20 em)', () => {
    for (const formula of ['$\\rule{100000em}{100000em}$', '$a\\kern100000em b$', '$\\hspace{100000em}x$', '$a\\mkern100000mu b$']) {
      const sizes = drawnSizes(richTextHtml(formula));
      expect(sizes.length, formula).toBeGreaterThan(0);
      expect(Math.max(...sizes), formula).toBeLessThanOrEqual(20);
    }
    // Raised or spaced content: the cap plus the content's own height.
    for (const formula of [
      '$\\raisebox{100000em}{x}$',
      '$\\rule[100000em]{1em}{1em}$',
      '$$\\begin{aligned}a\\\\[100000em]b\\end{aligned}$$',
    ]) {
      expect(Math.max(...drawnSizes(richTextHtml(formula))), formula).toBeLessThanOrEqual(25);
    }
  });

  it('stops a macro bomb quickly, with the error shown as text', () => {
    const started = performance.now();
    const html = richTextHtml('Avant $\\def\\a{\\a\\a}\\a$ après');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(html).toContain('class="katex-error"');
    expect(html).toContain('Too many expansions');
    expect(html).toContain('\\def\\a{\\a\\a}\\a</span> après');
  });

  it('refuses more than maxExpand (1000) expansions, even of a harmless macro', () => {
    expect(richTextHtml(`$\\def\\a{x}${'\\a'.repeat(900)}$`)).not.toContain('katex-error');
    expect(richTextHtml(`$\\def\\a{x}${'\\a'.repeat(1100)}$`)).toContain('Too many expansions');
  });
});
