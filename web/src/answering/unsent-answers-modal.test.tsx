import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { UnsentAnswersModal } from './unsent-answers-modal';

describe('UnsentAnswersModal (a native dialog, decision 96)', () => {
  it('shows nothing until a logout needs it', () => {
    renderWithProviders(<UnsentAnswersModal step={null} onStay={() => {}} onLeave={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cannot be closed while the answers are being sent', () => {
    const onStay = vi.fn();
    renderWithProviders(<UnsentAnswersModal step="sending" onStay={onStay} onLeave={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Déconnexion' });
    expect(screen.getByRole('status').textContent).toBe('Envoi de vos réponses avant la déconnexion…');
    expect(screen.queryByRole('button', { name: 'Fermer' })).toBeNull();
    const escape = new Event('cancel', { cancelable: true });
    fireEvent(dialog, escape);
    expect(escape.defaultPrevented).toBe(true);
    fireEvent.click(dialog);
    expect(onStay).not.toHaveBeenCalled();
  });

  it('once the pupil has a choice, Escape, the close button and a click outside mean « stay »', () => {
    const onStay = vi.fn();
    const onLeave = vi.fn();
    renderWithProviders(<UnsentAnswersModal step="unsent" onStay={onStay} onLeave={onLeave} />);
    const dialog = screen.getByRole('dialog', { name: 'Déconnexion' });
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Fermer' }));
    fireEvent.click(dialog);
    fireEvent.click(screen.getByRole('alert'));
    expect(onStay).toHaveBeenCalledTimes(3);
    fireEvent.click(screen.getByRole('button', { name: 'Se déconnecter sans les envoyer' }));
    expect(onLeave).toHaveBeenCalledTimes(1);
  });
});
