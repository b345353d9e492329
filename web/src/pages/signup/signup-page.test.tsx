import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { SignupPage } from './signup-page';

const registerMock = vi.hoisted(() => vi.fn());
vi.mock('../../api/auth', () => ({ register: registerMock }));

const submitButton = () => screen.getByRole('button') as HTMLButtonElement;

async function send(email = 'eleve@example.fr') {
  renderWithProviders(<SignupPage />);
  fireEvent.change(screen.getByLabelText(/E-mail/), { target: { value: email } });
  fireEvent.click(submitButton());
  await act(async () => {});
}

describe('SignupPage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    registerMock.mockReset().mockResolvedValue(undefined);
  });
  afterEach(() => vi.useRealTimers());

  it('has a required e-mail field and the staff advice', () => {
    renderWithProviders(<SignupPage />);
    const input = screen.getByLabelText(/E-mail/) as HTMLInputElement;
    expect(input.type).toBe('email');
    expect(input.required).toBe(true);
    expect(screen.getByRole('heading', { name: 'Inscription' })).toBeTruthy();
    expect(screen.getByText(/adresse académique que si vous faites partie du personnel scolaire/)).toBeTruthy();
    expect(submitButton().textContent).toBe('Envoyer');
  });

  it('sends the e-mail, then counts 60 s down with the button disabled', async () => {
    await send();
    expect(registerMock).toHaveBeenCalledWith('eleve@example.fr', null);
    // Decision 66: a lasting message names the address and where to look.
    expect(screen.getByText(/Un courriel a été envoyé à/).textContent).toContain('eleve@example.fr');
    expect(screen.getByText(/vérifiez les indésirables/)).toBeTruthy();
    expect(screen.getByText(/nouvel envoi dans 60 s/)).toBeTruthy();
    expect(submitButton().disabled).toBe(true);
    expect(submitButton().textContent).toBe('Renvoyer dans 60s');

    act(() => vi.advanceTimersByTime(1000));
    expect(submitButton().textContent).toBe('Renvoyer dans 59s');

    act(() => vi.advanceTimersByTime(58_000));
    expect(submitButton().textContent).toBe('Renvoyer dans 1s');
    expect(submitButton().disabled).toBe(true);

    act(() => vi.advanceTimersByTime(1000));
    expect(submitButton().disabled).toBe(false);
    expect(screen.getByText(/Un courriel a été envoyé à/)).toBeTruthy();
    expect(submitButton().textContent).toBe('Renvoyer');
  });

  it('cannot send twice during the countdown', async () => {
    await send();
    fireEvent.submit(submitButton().form!);
    expect(registerMock).toHaveBeenCalledTimes(1);
  });

  it('can send again once the countdown is over', async () => {
    await send();
    act(() => vi.advanceTimersByTime(60_000));
    fireEvent.click(submitButton());
    expect(registerMock).toHaveBeenCalledTimes(2);
  });

  it('shows only the field’s own message for a refused address, and no wait before correcting it', async () => {
    registerMock.mockRejectedValue(
      new ApiError('http', {
        status: 400,
        data: { message: 'Données invalides (email) : Adresse e-mail invalide.', fields: { email: 'Adresse e-mail invalide.' } },
      }),
    );
    await send('eleve@exemple');
    expect(screen.getByText('Adresse e-mail invalide.')).toBeTruthy();
    expect(screen.queryByText(/Données invalides/)).toBeNull();
    expect(screen.queryByText('Courriel envoyé')).toBeNull();
    expect(screen.queryByText(/Un courriel a été envoyé/)).toBeNull();
    expect(submitButton().disabled).toBe(false);
    expect(submitButton().textContent).toBe('Envoyer');
    expect(screen.getByLabelText(/E-mail/).getAttribute('aria-invalid')).toBe('true');
  });

  it('says the server could not be reached, without the sent notice or the wait', async () => {
    registerMock.mockRejectedValue(new ApiError('network'));
    await send();
    expect(screen.getByText(/Le serveur ne répond pas/)).toBeTruthy();
    expect(screen.queryByText('Courriel envoyé')).toBeNull();
    expect(submitButton().disabled).toBe(false);
  });

  it('sends the call without the client’s notifications (the page says the outcome once)', async () => {
    const { register } = await vi.importActual<typeof import('../../api/auth')>('../../api/auth');
    const client = await import('../../api/client');
    const post = vi.spyOn(client.api, 'post').mockResolvedValue({ data: {}, status: 200, headers: new Headers() });
    await register('eleve@example.fr');
    expect(post).toHaveBeenCalledWith('/auth/register', { email: 'eleve@example.fr' }, { skipNotifications: true });
    post.mockRestore();
  });
});
