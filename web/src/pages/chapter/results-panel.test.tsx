import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResultsCard } from '@olympe/contract';
import { renderWithProviders } from '../../test/render';
import { PupilResults } from './results-panel';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), patch: vi.fn(), delete: vi.fn() }));
vi.mock('../../api/client', async (orig) => ({ ...(await orig<typeof import('../../api/client')>()), api: http }));

const CARD: ResultsCard = {
  chapter: { _id: 'c1', title: 'Tour 1' },
  exercises: [{ _id: 'e1', title: 'Somme', grade: null, excused: false, maxPoints: 8, comment: '' }],
  total: 0,
  maxTotal: 8,
};

describe('PupilResults (decision 139)', () => {
  beforeEach(() => http.get.mockReset());

  it('tells a pupil who did not take part so, with no « 0 / 8 » and no certificate button', async () => {
    http.get.mockResolvedValue({ data: { ...CARD, participated: false } });
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    expect(await screen.findByText('Vous n’avez pas participé à ce chapitre.')).toBeTruthy();
    expect(http.get.mock.calls[0][0]).toBe('/results/c1');
    expect(screen.queryByText(/Total/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Télécharger mon attestation' })).toBeNull();
  });

  it('shows a participant’s card and their certificate button', async () => {
    http.get.mockResolvedValue({ data: { ...CARD, participated: true, total: 3, exercises: [{ ...CARD.exercises[0], grade: 3 }] } });
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    expect(await screen.findByRole('button', { name: 'Télécharger mon attestation' })).toBeTruthy();
    expect(screen.queryByText('Vous n’avez pas participé à ce chapitre.')).toBeNull();
  });
});
