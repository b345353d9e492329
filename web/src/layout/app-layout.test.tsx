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
    fireEvent.click(screen.getByRole('link', { name: "S'inscrire" }));
    expect(overlay()).toBeNull();
  });
});
