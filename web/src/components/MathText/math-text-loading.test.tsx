import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { MathText } from './MathText';

// Its own file: the lazy KaTeX chunk is loaded once per module graph, so only the first render of
// a test file shows the loading state.
describe('MathText while KaTeX loads', () => {
  it('never puts the raw Markdown or LaTeX in the page : a placeholder named « Chargement de l’énoncé » stands in', async () => {
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(document.body.textContent ?? ''));
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    const { container, getByRole } = renderWithProviders(
      <MathText label="Énoncé" value={'Durée : **60 minutes**. Calculer $\\frac{1}{2}$.'} />,
    );
    // Right after the first render (the chunk cannot have loaded yet).
    seen.push(container.textContent ?? '');
    expect(getByRole('status', { name: 'Chargement de l’énoncé' })).toBeTruthy();
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    observer.disconnect();
    expect(container.querySelector('[data-testid="math-placeholder"]')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('60 minutes');
    for (const text of seen) {
      expect(text).not.toContain('$\\frac');
      expect(text).not.toContain('**60');
    }
  });
});
