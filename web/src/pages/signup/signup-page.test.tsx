import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { SignupPage } from './signup-page';

const registerMock = vi.hoisted(() => vi.fn());
vi.mock('../../api/auth', () => ({ register: registerMock }));

const submitButton = () => screen.getByRole('button') as HTMLButtonElement;

function send(email = 'eleve@example.fr') {
  renderWithProviders(<SignupPage />);
  fireEvent.change(screen.getByLabelText(/E-mail/), { target: { value: email } });
  fireEvent.click(submitButton());
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

  it('sends the e-mail, then counts 60 s down with the button disabled', () => {
    send();
    expect(registerMock).toHaveBeenCalledWith('eleve@example.fr', null);
    // Issue 24: a lasting message names the address and where to look.
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

  it('cannot send twice during the countdown', () => {
    send();
    fireEvent.submit(submitButton().form!);
    expect(registerMock).toHaveBeenCalledTimes(1);
  });

  it('can send again once the countdown is over', () => {
    send();
    act(() => vi.advanceTimersByTime(60_000));
    fireEvent.click(submitButton());
    expect(registerMock).toHaveBeenCalledTimes(2);
  });

  it('swallows a failed call without an extra message', async () => {
    registerMock.mockRejectedValue(new Error('429'));
    send();
    await act(async () => {});
    expect(screen.queryByRole('alert')).toBeNull();
    expect(submitButton().textContent).toBe('Renvoyer dans 60s');
  });
});
