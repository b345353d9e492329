import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { ConfirmDialog, countOf } from './confirm-dialog';

describe('ConfirmDialog', () => {
  it('cannot be confirmed while its counts load, then confirms or cancels', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const props = { opened: true, title: 'Supprimer ?', confirmLabel: 'Supprimer', onConfirm, onCancel };
    function Harness() {
      const [message, setMessage] = useState<string | null>(null);
      return (
        <>
          <button type="button" onClick={() => setMessage('3 copies seront supprimées.')}>
            Compter
          </button>
          <ConfirmDialog {...props} message={message} />
        </>
      );
    }
    renderWithProviders(<Harness />);
    expect(screen.getByLabelText('Calcul en cours')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Supprimer' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Compter', hidden: true }));
    expect(screen.getByText('3 copies seront supprimées.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Supprimer' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('writes counts the French way', () => {
    expect(countOf(1, 'copie')).toBe('1\u00a0copie');
    expect(countOf(1234, 'copie')).toBe('1\u202f234\u00a0copies');
    expect(countOf(2, 'copie notée', 'copies notées')).toBe('2\u00a0copies notées');
  });
});
