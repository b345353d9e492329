import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { newAccessRow } from './access-form';
import { AccessTable } from './access-table';

const SELECTIONS = [{ value: 's1', label: 'Sélection pour le tour 2' }];

describe('AccessTable: « Réservé aux qualifiés de » (decision 157)', () => {
  it('shows the selection a group requires, and « Aucune sélection » for none', () => {
    const rows = [
      { ...newAccessRow(), requiredSelectionId: 's1' },
      { ...newAccessRow(), requiredSelectionId: null },
    ];
    renderWithProviders(<AccessTable rows={rows} selections={SELECTIONS} onUpdate={vi.fn()} onRemove={vi.fn()} />);
    expect((screen.getByLabelText('Réservé aux qualifiés de du groupe 1') as HTMLInputElement).value).toBe('Sélection pour le tour 2');
    expect((screen.getByLabelText('Réservé aux qualifiés de du groupe 2') as HTMLInputElement).value).toBe('Aucune sélection');
  });

  it('keeps a required selection the list does not hold', () => {
    renderWithProviders(
      <AccessTable rows={[{ ...newAccessRow(), requiredSelectionId: 's9' }]} selections={[]} onUpdate={vi.fn()} onRemove={vi.fn()} />,
    );
    expect((screen.getByLabelText('Réservé aux qualifiés de du groupe 1') as HTMLInputElement).value).toBe('Sélection enregistrée');
  });
});
