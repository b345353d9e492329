import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OwnQualification, ResultsCard } from '@olympe/contract';
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

const QUALIFIED: OwnQualification = {
  selectionId: 's1',
  title: 'Sélection pour le tour 2',
  qualified: true,
  category: 'Collège',
  cutoff: 42,
  score: 43.5,
  nextRoundTitle: 'le tour 2',
  nextRoundDate: '2027-03-13',
  nextRoundPlace: 'Lycée du Parc, Lyon',
};

/** The client answers by URL: the card, then the pupil's qualifications. */
function serve(card: ResultsCard, qualifications: OwnQualification[] = []) {
  http.get.mockImplementation(async (url: string) => {
    if (url === '/selection/mine') return { data: qualifications };
    if (url.endsWith('/letter')) return { data: new Blob(['%PDF']) };
    return { data: card };
  });
}

const participated = { ...CARD, participated: true, total: 3, exercises: [{ ...CARD.exercises[0], grade: 3 }] };
const { createObjectURL, revokeObjectURL } = URL;

describe('PupilResults (decision 139)', () => {
  beforeEach(() => {
    http.get.mockReset();
  });

  it('tells a pupil who did not take part so, with no « 0 / 8 » and no certificate button', async () => {
    serve({ ...CARD, participated: false });
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    expect(await screen.findByText('Vous n’avez pas participé à ce chapitre.')).toBeTruthy();
    expect(http.get.mock.calls[0][0]).toBe('/results/c1');
    expect(screen.queryByText(/Total/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Télécharger mon attestation' })).toBeNull();
  });

  it('shows a participant’s card and their certificate button', async () => {
    serve(participated);
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    expect(await screen.findByRole('button', { name: 'Télécharger mon attestation' })).toBeTruthy();
    expect(screen.queryByText('Vous n’avez pas participé à ce chapitre.')).toBeNull();
  });
});

describe('PupilResults: the selections (decision 157)', () => {
  beforeEach(() => {
    http.get.mockReset();
  });
  afterEach(() => Object.assign(URL, { createObjectURL, revokeObjectURL }));

  it('shows a qualified pupil the next round, category, cut-off, date and place, and downloads the letter', async () => {
    serve(participated, [QUALIFIED]);
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:letter'), revokeObjectURL: vi.fn() });
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    expect(await screen.findByText('Qualifié(e) pour le tour 2')).toBeTruthy();
    expect(screen.getByText('Catégorie : Collège')).toBeTruthy();
    expect(screen.getByText('Seuil : 42 points')).toBeTruthy();
    expect(screen.getByText('Votre score : 43,5 points')).toBeTruthy();
    expect(screen.getByText('Date du tour suivant : 13 mars 2027')).toBeTruthy();
    expect(screen.getByText('Lieu : Lycée du Parc, Lyon')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Télécharger mon attestation' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Télécharger la lettre de qualification' }));
    await waitFor(() => expect(http.get.mock.calls.map((c) => c[0])).toContain('/selection/s1/letter'));
    const letter = http.get.mock.calls.find((c) => c[0] === '/selection/s1/letter')!;
    expect(letter[1]).toMatchObject({ responseType: 'blob' });
  });

  it('tells a pupil who is not qualified so, with the cut-off, and offers no letter', async () => {
    serve(participated, [{ ...QUALIFIED, qualified: false, score: 12, cutoff: 42.5, category: 'Seconde' }]);
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    expect(await screen.findByText('Non qualifié(e)')).toBeTruthy();
    expect(screen.getByText('Catégorie : Seconde')).toBeTruthy();
    expect(screen.getByText('Seuil : 42,5 points')).toBeTruthy();
    expect(screen.queryByText(/Date du tour suivant/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Télécharger la lettre de qualification' })).toBeNull();
  });

  it('shows nothing of selections while none is published', async () => {
    serve(participated, []);
    renderWithProviders(<PupilResults chapterId="c1" title="Tour 1" />);
    await screen.findByRole('button', { name: 'Télécharger mon attestation' });
    await waitFor(() => expect(http.get.mock.calls.map((c) => c[0])).toContain('/selection/mine'));
    expect(screen.queryByRole('heading', { name: 'Sélections' })).toBeNull();
  });
});
