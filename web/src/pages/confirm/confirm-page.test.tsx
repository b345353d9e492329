import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ConfirmPage } from './confirm-page';

const confirmMock = vi.hoisted(() => vi.fn());
vi.mock('../../api/auth', () => ({ confirm: confirmMock }));

const MESSAGE = 'Le mot de passe ne respecte pas toutes les contraintes.';

function setup() {
  renderWithProviders(<ConfirmPage />, { route: '/confirm?token=tok123', targets: { '/login': 'Page de connexion' } });
  const input = screen.getByLabelText(/Mot de passe/);
  const type = (value: string) => fireEvent.change(input, { target: { value } });
  const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Continuer' }));
  return { type, submit };
}

const ruleState = (id: string) => document.querySelector(`[data-rule="${id}"]`)?.getAttribute('data-met');

describe('ConfirmPage', () => {
  beforeEach(() => {
    confirmMock.mockReset();
  });

  it('shows the title and the five rules, updated live with a textual state', () => {
    const { type } = setup();
    expect(screen.getByRole('heading', { name: 'Choix du mot de passe' })).toBeTruthy();
    expect(screen.getAllByText(/^Non respectée :/)).toHaveLength(5);
    type('abcdefgh');
    expect(ruleState('length')).toBe('true');
    expect(ruleState('lower')).toBe('true');
    expect(ruleState('upper')).toBe('false');
    expect(screen.getAllByText(/^Respectée :/)).toHaveLength(2);
  });

  it('makes no call and shows the message when a rule fails', () => {
    const { type, submit } = setup();
    type('Abcdefg1'); // no special character
    submit();
    expect(confirmMock).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain(MESSAGE);
  });

  it('sends token and password when valid, then goes to /login', async () => {
    confirmMock.mockResolvedValue(undefined);
    const { type, submit } = setup();
    type('Abcdefg1!');
    submit();
    expect(confirmMock).toHaveBeenCalledWith({ token: 'tok123', password: 'Abcdefg1!' });
    expect(await screen.findByText('Page de connexion')).toBeTruthy();
    expect(screen.queryByText(MESSAGE)).toBeNull();
  });

  it('stays on the page, silently, when the server refuses', async () => {
    confirmMock.mockImplementation(async () => { throw new Error('400'); });
    const { type, submit } = setup();
    type('Abcdefg1!');
    submit();
    expect(confirmMock).toHaveBeenCalledTimes(1);
    await screen.findByRole('button', { name: 'Continuer' });
    expect(screen.queryByText('Page de connexion')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
