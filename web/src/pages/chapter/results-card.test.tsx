import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ResultsCard } from '@olympe/contract';
import { renderWithProviders } from '../../test/render';
import { rankText, ResultsCardView } from './results-card';

const CARD: ResultsCard = {
  chapter: { _id: 'c', title: 'Tour 1' },
  exercises: [
    { _id: 'e1', title: 'Somme des carrés', grade: 2.5, excused: false, maxPoints: 4, comment: 'Bonne méthode' },
    { _id: 'e2', title: 'Preuve', grade: null, excused: true, maxPoints: 10, comment: '' },
    { _id: 'e3', title: 'Géométrie', grade: null, excused: false, maxPoints: 6, comment: '' },
  ],
  total: 2.5,
  maxTotal: 20,
  rank: 2,
  participants: 1234,
  percentile: 75,
  qualified: true,
  qualificationText: 'Qualifié(e) pour le tour suivant',
};

describe('ResultsCardView', () => {
  it('shows the total out of the maximum with a decimal comma, the rank, the qualification and each grade', () => {
    renderWithProviders(<ResultsCardView card={CARD} />);
    const card = screen.getByRole('region', { name: 'Vos résultats' });
    expect(within(card).getByText('Total : 2,5 / 20')).toBeTruthy();
    expect(within(card).getByText('Rang : 2e sur 1 234')).toBeTruthy();
    expect(within(card).getByText('Centile : 75')).toBeTruthy();
    expect(within(card).getByText('Qualifié(e) pour le tour suivant')).toBeTruthy();
    const rows = within(screen.getByRole('table', { name: 'Notes par exercice' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'ExerciceNote',
      'Somme des carrésCommentaire : Bonne méthode2,5\u00a0/\u00a04',
      'PreuveExcusé (X)',
      'GéométrieNon noté',
    ]);
  });

  it('leaves out the rank when hidden and says when the pupil is not qualified', () => {
    const { rank: _r, participants: _p, percentile: _c, ...hidden } = CARD;
    renderWithProviders(<ResultsCardView card={{ ...hidden, qualified: false }} />);
    expect(screen.queryByText(/Rang/)).toBeNull();
    expect(screen.getByText('Pas de qualification pour le tour suivant.')).toBeTruthy();
    expect(rankText(1, 3)).toBe('1er sur 3');
  });
});
