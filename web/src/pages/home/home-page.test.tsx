import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { renderWithProviders } from '../../test/render';
import { makeUser } from '../../test/fixtures';
import { HomePage } from './home-page';

describe('HomePage', () => {
  it('gives a visitor « Se connecter » and « S’inscrire » as buttons of the page, for phones (decision 141)', () => {
    renderWithProviders(<HomePage />);
    const login = screen.getByRole('link', { name: 'Se connecter' });
    const signup = screen.getByRole('link', { name: 'S’inscrire' });
    expect(login.getAttribute('href')).toBe('/login');
    expect(signup.getAttribute('href')).toBe('/signup');
    // Below the mobile breakpoint only: on a wider screen the sidebar shows them.
    expect(screen.getByTestId('visitor-actions').className).toContain('mantine-hidden-from-sm');
  });

  it('does not offer them to a signed-in user, nor while a kept session loads', () => {
    const { unmount } = renderWithProviders(
      <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', user: makeUser() }}>
        <HomePage />
      </SessionContext.Provider>,
    );
    expect(screen.queryByRole('link', { name: 'Se connecter' })).toBeNull();
    unmount();
    renderWithProviders(
      <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', loading: true }}>
        <HomePage />
      </SessionContext.Provider>,
    );
    expect(screen.queryByTestId('visitor-actions')).toBeNull();
  });
});
