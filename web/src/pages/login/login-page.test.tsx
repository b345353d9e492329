import { MantineProvider } from '@mantine/core';
import { fireEvent, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { ApiError } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { theme } from '../../theme';
import { LoginPage } from './login-page';

const loginMock = vi.hoisted(() => vi.fn());
vi.mock('../../api/auth', () => ({ login: loginMock }));

function setup(sessionLogin = vi.fn().mockResolvedValue(undefined)) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, login: sessionLogin }}>
      <LoginPage />
    </SessionContext.Provider>,
    { route: '/login', targets: { '/profile': 'Page profil' } },
  );
  const email = screen.getByLabelText(/E-mail/) as HTMLInputElement;
  const password = screen.getByLabelText(/Mot de passe/) as HTMLInputElement;
  return { email, password, sessionLogin };
}

describe('LoginPage', () => {
  it('has required e-mail and password fields', () => {
    const { email, password } = setup();
    expect(screen.getByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(email.type).toBe('email');
    expect(email.required).toBe(true);
    expect(password.required).toBe(true);
    // The show-password toggle is named in French, its state given by aria-pressed.
    expect(screen.getByRole('button', { name: 'Afficher le mot de passe' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('comes from the server with its button disabled, enabled once the app has taken the page over (decision 118)', () => {
    // A click before the app runs would send the form as a plain page: reloaded, what was typed lost.
    const served = renderToString(
      <MantineProvider theme={theme}>
        <MemoryRouter initialEntries={['/login']}>
          <LoginPage />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(served).toMatch(/<button[^>]*type="submit"[^>]*disabled=""/);
    setup();
    expect((screen.getByRole('button', { name: 'Se connecter' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('tells a pupil who forgot the password to sign up again with the same address', () => {
    setup();
    expect(screen.getByText(/^Mot de passe oublié \?/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Inscrivez-vous à nouveau avec la même adresse' }).getAttribute('href')).toBe('/signup');
  });

  it('logs in, loads the session with the token, then goes to /profile', async () => {
    loginMock.mockResolvedValue({ token: 'jwt-1', refreshToken: 'r-1' });
    const { email, password, sessionLogin } = setup();
    fireEvent.change(email, { target: { value: 'a@b.fr' } });
    fireEvent.change(password, { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Page profil')).toBeTruthy();
    expect(loginMock).toHaveBeenCalledWith({ email: 'a@b.fr', password: 'secret' });
    expect(sessionLogin).toHaveBeenCalledWith('jwt-1', 'r-1');
  });

  it('stays on the page when the login fails', async () => {
    loginMock.mockRejectedValue(new Error('401'));
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { email, password, sessionLogin } = setup();
    fireEvent.change(email, { target: { value: 'a@b.fr' } });
    fireEvent.change(password, { target: { value: 'faux' } });
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    await vi.waitFor(() => expect(spy).toHaveBeenCalled());
    expect(sessionLogin).not.toHaveBeenCalled();
    expect(screen.queryByText('Page profil')).toBeNull();
    spy.mockRestore();
  });

  it('says a refusal in the page, and clears it as soon as the next attempt starts (decision 141)', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    loginMock.mockReset();
    loginMock.mockRejectedValueOnce(new ApiError('http', { status: 401, data: { message: 'E-mail ou mot de passe incorrect.' } }));
    // The second attempt succeeds; the session then loads (held here, to look at the page meanwhile).
    loginMock.mockResolvedValueOnce('jwt-2');
    const { email, password } = setup(vi.fn(() => new Promise<void>(() => {})));
    fireEvent.change(email, { target: { value: 'a@b.fr' } });
    fireEvent.change(password, { target: { value: 'faux' } });
    fireEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur\u00a0: E-mail ou mot de passe incorrect.');
    fireEvent.change(password, { target: { value: 'juste' } });
    fireEvent.click(screen.getByRole('button', { name: /Se connecter/ }));
    await vi.waitFor(() => expect(loginMock).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('alert')).toBeNull();
    spy.mockRestore();
  });

  it('asks the client for no notification: the page says the refusal itself', async () => {
    const { login } = await vi.importActual<typeof import('../../api/auth')>('../../api/auth');
    const client = await import('../../api/client');
    const post = vi.spyOn(client.api, 'post').mockResolvedValue({ data: { token: 't' }, status: 200, headers: new Headers() });
    await login({ email: 'a@b.fr', password: 'x' });
    expect(post).toHaveBeenCalledWith('/auth/login', { email: 'a@b.fr', password: 'x' }, { skipNotifications: true });
    post.mockRestore();
  });
});
