import { describe, expect, it } from 'vitest';
import { richTextHtml } from './html';
import { fenceDisplayMath, safeUrl } from './index';

describe('richTextHtml: a statement drawn by the server (decision 122)', () => {
  it('draws Markdown and formulas as KaTeX does in the browser, with the formula read by screen readers (MathML)', () => {
    const html = richTextHtml('Vous disposez de **60 minutes**. $\\frac{1}{2}$ s’écrit `0,5`.');
    expect(html).toContain('<strong>60 minutes</strong>');
    expect(html).toContain('<code>0,5</code>');
    expect(html).toContain('<span class="katex">');
    expect(html).toContain('<mfrac><mn>1</mn><mn>2</mn></mfrac>');
    expect(html).toContain('<annotation encoding="application/x-tex">\\frac{1}{2}</annotation>');
  });

  it('displays $$…$$ on its own even inside a line, as the browser does', () => {
    expect(richTextHtml('Calculer $$\\sum_{k=1}^{n} k$$ puis conclure.')).toMatch(/<p>Calculer<\/p>\s*<span class="katex-display">/);
  });

  it('keeps no script, no event handler, no script link, neither in Markdown nor in a formula', () => {
    const html = richTextHtml(
      'Texte <script>alert(1)</script> <img src=x onerror="alert(2)"> <b onclick="alert(3)">gras</b> [a](javascript:alert(4)) [b](java\tscript:alert(5)) ![c](data:image/png;base64,AAA) $\\href{javascript:alert(6)}{x}$ [d](https://olympe.fr/a?b=1)',
    );
    expect(html).not.toMatch(/<script/i);
    // No event handler and no script or data address in any attribute; what stays of them is text.
    expect(html).not.toMatch(/<[^>]*\son\w+=/i);
    expect(html).not.toMatch(/(href|src)="\s*(javascript|data|vbscript):/i);
    expect(html).not.toMatch(/<b\b/);
    expect(html).toContain('<a>a</a>');
    expect(html).toContain('<a href="https://olympe.fr/a?b=1">d</a>');
    // KaTeX's trust: false shows \href as an unknown command, in red, never as a link.
    expect(html).not.toMatch(/<a[^>]*href="[^"]*alert\(6\)/);
  });

  it('draws an empty text as nothing', () => {
    expect(richTextHtml('')).toBe('');
  });
});

describe('the pipeline settings both renderers share', () => {
  it('fences $$…$$ on lines of their own, leaving \\$$ alone', () => {
    expect(fenceDisplayMath('a $$x$$ b')).toBe('a \n$$\nx\n$$\n b');
    expect(fenceDisplayMath('prix \\$$ 3')).toBe('prix \\$$ 3');
  });

  it('keeps safe and relative links and empties the others', () => {
    expect(safeUrl('https://olympe.fr')).toBe('https://olympe.fr');
    expect(safeUrl('/chapter/1#ex')).toBe('/chapter/1#ex');
    expect(safeUrl('mailto:a@b.fr')).toBe('mailto:a@b.fr');
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl('vbscript:x')).toBe('');
    expect(safeUrl('data:text/html,x')).toBe('');
    expect(safeUrl('ftp://x')).toBe('');
  });
});
