import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { renderWithProviders } from '../../test/render';
import { ConfirmPage } from './confirm-page';
import { ApiError } from '../../api/client';

const confirmMock = vi.hoisted(() => vi.fn());
const linkState = vi.hoisted(() => ({ value: {} as Record<string, unknown> }));
vi.mock('../../api/auth', () => ({ confirm: confirmMock, useLinkCheck: () => linkState.value }));

const MESSAGE = 'Le mot de passe ne respecte pas toutes les contraintes.';
const VALID = { isPending: false, isError: false, data: { valid: true, email: 'eleve@exemple.fr' } };

function setup(route = '/confirm?token=tok123', sessionLogin = vi.fn().mockResolvedValue(undefined)) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, login: sessionLogin }}>
      <ConfirmPage />
    </SessionContext.Provider>,
    { route, targets: { '/profile': 'Page profil', '/chapter/c1': 'Page du chapitre' } },
  );
  return { sessionLogin };
}

function form() {
  const input = screen.getByLabelText(/Mot de passe/);
  const type = (value: string) => fireEvent.change(input, { target: { value } });
  const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Continuer' }));
  return { type, submit };
}

const ruleState = (id: string) => document.querySelector(`[data-rule="${id}"]`)?.getAttribute('data-met');

describe('ConfirmPage', () => {
  beforeEach(() => {
    confirmMock.mockReset();
    linkState.value = VALID;
  });

  it('shows the title, the account and the five rules, updated live with a textual state', () => {
    setup();
    const { type } = form();
    expect(screen.getByRole('heading', { name: 'Choix du mot de passe' })).toBeTruthy();
    expect((screen.getByLabelText('Adresse e-mail') as HTMLInputElement).value).toBe('eleve@exemple.fr');
    expect(screen.getAllByText(/^Non respectée\s:/)).toHaveLength(5);
    type('abcdefgh');
    expect(ruleState('length')).toBe('true');
    expect(ruleState('upper')).toBe('false');
    expect(screen.getAllByText(/^Respectée\s:/)).toHaveLength(2);
  });

  it('makes no call and shows the message when a rule fails', () => {
    setup();
    const { type, submit } = form();
    type('Abcdefg1'); // no special character
    submit();
    expect(confirmMock).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain(MESSAGE);
  });

  it('logs in with the token the server answers, then goes to the profile', async () => {
    confirmMock.mockResolvedValue({ message: 'ok', token: 'jwt-1', refreshToken: 'r-1' });
    const { sessionLogin } = setup();
    const { type, submit } = form();
    type('Abcdefg1!');
    submit();
    expect(confirmMock).toHaveBeenCalledWith({ token: 'tok123', password: 'Abcdefg1!' });
    expect(await screen.findByText('Page profil')).toBeTruthy();
    expect(sessionLogin).toHaveBeenCalledWith('jwt-1', 'r-1');
  });

  it('goes back where the user was going (?retour=), never to another site', async () => {
    confirmMock.mockResolvedValue({ message: 'ok', token: 'jwt-1', refreshToken: 'r-1' });
    setup('/confirm?token=tok123&retour=%2Fchapter%2Fc1');
    const { type, submit } = form();
    type('Abcdefg1!');
    submit();
    expect(await screen.findByText('Page du chapitre')).toBeTruthy();
  });

  it('stays on the page, silently, when the server refuses', async () => {
    confirmMock.mockImplementation(async () => {
      throw new Error('400');
    });
    setup();
    const { type, submit } = form();
    type('Abcdefg1!');
    submit();
    expect(confirmMock).toHaveBeenCalledTimes(1);
    await screen.findByRole('button', { name: 'Continuer' });
    expect(screen.queryByText('Page profil')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says at once that a link is used, without the password form, and offers a new one', () => {
    linkState.value = {
      isPending: false,
      isError: true,
      error: new ApiError('http', { status: 410, data: { message: 'Ce lien a déjà servi.', code: 'link_used' } }),
    };
    setup();
    expect(screen.getByText('Ce lien a déjà servi.')).toBeTruthy();
    expect(screen.queryByLabelText(/Mot de passe/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Recevoir un nouveau lien' }).getAttribute('href')).toMatch(/^\/signup/);
  });

  it('says a link without token is incomplete', () => {
    setup('/confirm');
    expect(screen.getByText(/Ce lien est incomplet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continuer' })).toBeNull();
  });
});
