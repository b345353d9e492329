import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
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
  // The formulas' chunk, loaded before: on a busy machine its first import outlasts the wait for the comment.
  beforeAll(() => import('../../components/MathText/math-render'));

  it('shows the total out of the maximum with a decimal comma, the rank, the qualification and each grade', async () => {
    renderWithProviders(<ResultsCardView card={CARD} />);
    await screen.findByText('Bonne méthode');
    const card = screen.getByRole('region', { name: 'Vos résultats' });
    expect(within(card).getByText('Total : 2,5 / 20')).toBeTruthy();
    expect(within(card).getByText('Rang : 2e sur 1 234')).toBeTruthy();
    expect(within(card).getByText('Centile : 75')).toBeTruthy();
    expect(within(card).getByText('Qualifié(e) pour le tour suivant')).toBeTruthy();
    const rows = within(screen.getByRole('table', { name: 'Notes par exercice' })).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'ExerciceNote',
      'Somme des carrésCommentaire :Bonne méthode2,5\u00a0/\u00a04',
      'PreuveExcusé (X)',
      'GéométrieNon noté',
    ]);
  });

  it('draws the corrector’s comment with the statements’ pipeline, never raw LaTeX or Markdown (decision 141)', async () => {
    const card = { ...CARD, exercises: [{ ...CARD.exercises[0], comment: 'Il fallait **justifier** que $n^2 + 1$ est impair.' }] };
    renderWithProviders(<ResultsCardView card={card} />);
    const comment = await screen.findByRole('group', { name: 'Commentaire\u00a0: Somme des carrés' });
    expect(await within(comment).findByText('justifier', { selector: 'strong' })).toBeTruthy();
    expect(comment.querySelector('.katex')).not.toBeNull();
    expect(comment.textContent).not.toContain('$');
    expect(comment.textContent).not.toContain('**');
  });

  it('leaves out the rank when hidden and says when the pupil is not qualified', () => {
    const { rank: _r, participants: _p, percentile: _c, ...hidden } = CARD;
    renderWithProviders(<ResultsCardView card={{ ...hidden, qualified: false }} />);
    expect(screen.queryByText(/Rang/)).toBeNull();
    expect(screen.getByText('Pas de qualification pour le tour suivant.')).toBeTruthy();
    expect(rankText(1, 3)).toBe('1er sur 3');
  });
});
