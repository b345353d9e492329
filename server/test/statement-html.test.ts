import { describe, expect, it } from 'vitest';
import { richTextHtml } from '@olympe/rich-text/html';
import { drawnStatements } from '../src/exercises/statement-html.js';

describe('statements drawn off the event loop (decision 122)', () => {
  it('draws in a worker, keeps what it drew, and leaves to the browser a text whose HTML is over the cap', async () => {
    const unit = 'Soit $\\frac{a^2+b^2}{\\sqrt{c}}$ et $$\\sum_{k=1}^{n} \\binom{n}{k} x^k$$ ';
    const huge = unit.repeat(3000).slice(0, 100_000);
    const small = `Combien font $2+2$ ? (${Date.now()})`;
    // The event loop keeps turning while the worker draws a 100,000-character text (seconds of KaTeX).
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = performance.now();
    const [smallHtml, hugeHtml] = await drawnStatements([small, huge], 60_000);
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    expect(smallHtml).toBe(richTextHtml(small));
    // 9 MB of HTML: not sent to every pupil; MathText draws it in the browser as before.
    expect(hugeHtml).toBeUndefined();
    expect(ticks).toBeGreaterThan((elapsed / 10) * 0.5);
    // Kept: asked again, answered at once.
    const again = performance.now();
    expect(await drawnStatements([small])).toEqual([richTextHtml(small)]);
    expect(performance.now() - again).toBeLessThan(50);
  }, 60_000);

  it('answers without the HTML when drawing takes longer than the wait, and has it for the next reader', async () => {
    const text = `Instructions **${Date.now()}** : $\\sqrt{2}$`;
    expect(await drawnStatements([text], 0)).toEqual([undefined]);
    await expect.poll(async () => (await drawnStatements([text], 0))[0], { timeout: 10_000 }).toBe(richTextHtml(text));
  });
});
