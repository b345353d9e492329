import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import { MathText } from './MathText';

describe('MathText', () => {
  it('renders Markdown and formulas with KaTeX', async () => {
    const { container } = renderWithProviders(<MathText label="Énoncé" value={'**Gras** et $x^2$\n\n$$\\frac{1}{2}$$'} />);
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('strong')?.textContent).toBe('Gras');
    expect(container.querySelector('.katex-display')).not.toBeNull();
    expect(container.querySelectorAll('.katex').length).toBe(2);
  });

  it('displays $$…$$ written inside a line as a block, as the LaTeX export does', async () => {
    const { container } = renderWithProviders(<MathText label="Énoncé" value={'Résoudre $$x+1=2$$ puis conclure, coût \\$5.'} />);
    await waitFor(() => expect(container.querySelector('.katex-display')).not.toBeNull());
    expect(container.textContent).toContain('puis conclure');
  });

  it('never renders raw HTML nor javascript: links', async () => {
    const { container } = renderWithProviders(
      <MathText
        label="Énoncé"
        value={
          '<img src=x onerror="alert(1)"><script>alert(2)</script> [lien](javascript:alert(3)) [ok](https://exemple.fr) $\\href{javascript:alert(4)}{x}$'
        }
      />,
    );
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');
    expect(hrefs).toContain('https://exemple.fr');
    expect(hrefs.some((h) => /javascript/i.test(h))).toBe(false);
    expect(container.innerHTML).not.toMatch(/onerror/i);
    for (const el of container.querySelectorAll('[href], [src]')) {
      expect(`${el.getAttribute('href') ?? ''}${el.getAttribute('src') ?? ''}`).not.toMatch(/javascript/i);
    }
  });

  it('caps a giant box at 20 em and shows a macro bomb as text, with the settings the server shares (decision 137)', async () => {
    const { container } = renderWithProviders(
      <MathText label="Commentaire" value={'Noir $\\rule{100000em}{100000em}$ et $\\def\\a{\\a\\a}\\a$ fin'} />,
    );
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    const sizes = [...container.querySelectorAll<HTMLElement>('.katex [style]')].flatMap((el) =>
      [...el.getAttribute('style')!.matchAll(/(-?[\d.]+)em/g)].map(([, n]) => Number(n)),
    );
    expect(Math.max(...sizes)).toBe(20);
    expect(container.querySelector('.katex-error')?.textContent).toBe('\\def\\a{\\a\\a}\\a');
    expect(container.textContent).toContain('fin');
  });

  it('switches to a text area on click and commits on blur', async () => {
    const onChange = vi.fn();
    renderWithProviders(<MathText label="Instructions pour les élèves" value="Avant $a$" onChange={onChange} />);
    // jsdom cannot compute a name through KaTeX's output: the block is found by its hidden prefix.
    const editButton = () => screen.getByText(/^Modifier\s: Instructions pour les élèves/).closest('[role="button"]');
    fireEvent.click(editButton()!);
    const area = screen.getByLabelText('Instructions pour les élèves');
    expect((area as HTMLTextAreaElement).value).toBe('Avant $a$');
    fireEvent.change(area, { target: { value: 'Après $b$' } });
    fireEvent.blur(area);
    expect(onChange).toHaveBeenCalledWith('Après $b$');
    expect(editButton()).toBeTruthy();
  });

  it('opens with the keyboard and does not commit an unchanged text', () => {
    const onChange = vi.fn();
    renderWithProviders(<MathText label="Énoncé" value="" onChange={onChange} />);
    // The name holds the visible words (WCAG 2.5.3), not an aria-label that replaces them.
    const block = screen.getByRole('button', { name: 'Modifier : Énoncé Cliquez pour écrire…' });
    expect(block.getAttribute('aria-label')).toBeNull();
    fireEvent.keyDown(block, { key: 'Enter' });
    fireEvent.blur(screen.getByLabelText('Énoncé'));
    expect(onChange).not.toHaveBeenCalled();
  });
});
