import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { AppLayout } from './app-layout';

const menu = () => screen.getByRole('button', { name: 'Menu' });
const overlay = () => screen.queryByTestId('drawer-overlay');

describe('AppLayout', () => {
  it('has header, navigation and main landmarks', () => {
    renderWithProviders(<AppLayout />);
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Navigation principale' })).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
  });

  it('opens the drawer from the menu button and closes it on the overlay', () => {
    renderWithProviders(<AppLayout />);
    expect(overlay()).toBeNull();
    expect(menu().getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menu());
    expect(menu().getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(overlay()!);
    expect(overlay()).toBeNull();
    expect(menu().getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the drawer on navigation', () => {
    renderWithProviders(<AppLayout />);
    fireEvent.click(menu());
    expect(overlay()).not.toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'S’inscrire' }));
    expect(overlay()).toBeNull();
  });

  it('offers « Aller au contenu » first, which moves the focus to the main content', () => {
    renderWithProviders(<AppLayout />);
    const skip = screen.getByRole('link', { name: 'Aller au contenu' });
    // First in document order among the focusable elements: the first Tab lands on it.
    const focusable = document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])');
    expect(focusable[0]).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(screen.getByRole('main').id).toBe('contenu');
  });
});
