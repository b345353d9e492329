import { renderToStaticMarkup } from 'react-dom/server';
import { richTextHtml } from '@olympe/rich-text/html';
import { describe, expect, it } from 'vitest';
import MathRender from './math-render';

/**
 * Decision 122: the server draws a pupil's statements; the browser draws everything else. The same text must
 * give the same page either way: same elements, attributes, styles and words, compared as the browser reads them.
 */
function canonical(html: string): string {
  const box = document.createElement('div');
  box.innerHTML = html;
  // React's server rendering adds an image preload before the markup; the browser's rendering makes none.
  box.querySelectorAll('link[rel="preload"]').forEach((link) => link.remove());
  const walk = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return JSON.stringify(node.textContent);
    if (!(node instanceof Element)) return '';
    const attributes = [...node.attributes]
      .map((a) => (a.name === 'style' ? `style=${(node as HTMLElement).style.cssText}` : `${a.name}=${a.value}`))
      .sort()
      .join(' ');
    return `<${node.tagName.toLowerCase()} ${attributes}>${[...node.childNodes].map(walk).join('')}</>`;
  };
  return [...box.childNodes].map(walk).join('');
}

const TEXTS = [
  'Vous disposez de **60 minutes** à partir du moment où vous commencez. Les réponses sont des nombres : $\\frac{1}{2}$ s’écrit `0,5`.',
  'Soit $n \\geqslant 1$ un entier. Montrer que $$\\sum_{k=1}^{n} k^2 = \\frac{n(n+1)(2n+1)}{6}$$ puis en déduire $\\displaystyle\\lim_{n\\to\\infty} \\frac{1}{n^3}\\sum k^2$.',
  '# Exercice 1\n\n1. Première question ;\n2. *Deuxième* question : $x^2 - 2 = 0$.\n\n> Indication : $\\sqrt{2} \\notin \\mathbb{Q}$.\n\n- a\n- b\n\n```\ncode\n```',
  'Un [lien](https://olympe.fr/reglement?x=1#a), un [autre](javascript:alert(1)), une image ![plan](/assets/plan.png) et un ![piège](data:image/png;base64,AAA).',
  'Texte <b onclick="alert(1)">gras</b> <script>alert(2)</script> <img src=x onerror="alert(3)"> fin.',
  'Formule fausse : $\\frac{1}{$ et commande inconnue $\\foo{x}$, \\$ échappé, prix 3 $ seulement.',
  'Tableau ? | a | b |\n|---|---|\n| 1 | 2 |\n\nLigne  \ncassée et espace fine\u202f: « guillemets ».',
  '$\\href{javascript:alert(1)}{x}$ et $\\includegraphics{x.png}$ et $\\textcolor{red}{rouge}$',
];

describe('a statement drawn by the server reads as the browser draws it (decision 122)', () => {
  it.each(TEXTS.map((text, i) => [i, text]))('text %i', (_i, text) => {
    const browser = renderToStaticMarkup(<MathRender value={text as string} />);
    const server = richTextHtml(text as string);
    expect(canonical(server)).toBe(canonical(browser));
    // Something was drawn: the comparison is not of two empty pages.
    expect(canonical(server).length).toBeGreaterThan(20);
  });
});
