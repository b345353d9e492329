import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Publication } from '@olympe/contract';
import { ApiError } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { publicationMessage, PublicationDialog } from './publication-dialog';

const PUBLICATION: Publication = {
  _id: 'c1',
  title: 'Tour 1',
  analysis: false,
  publishAt: null,
  published: false,
  showRank: false,
  qualificationThreshold: null,
  qualificationText: 'Qualifié(e) pour le tour suivant',
  copiesReturned: false,
  correctorNamed: false,
  maxTotal: 20,
  counts: { pupils: 1234, answers: 2400, graded: 2300 },
  pupils: [{ _id: 'p1', firstName: 'Sophie', lastName: 'Germain' }],
};

const mocks = vi.hoisted(() => ({ mutate: vi.fn(), publication: null as unknown, preview: vi.fn() }));
vi.mock('../../api/results', async (orig) => ({
  ...(await orig<typeof import('../../api/results')>()),
  usePublication: () => ({ isPending: false, isError: false, data: mocks.publication }),
  useUpdatePublication: () => ({ mutate: mocks.mutate, isPending: false }),
  usePreview: (_c: string, userId: string | null) => ({ data: userId ? mocks.preview(userId) : undefined }),
  downloadCertificatesZip: vi.fn(),
}));

describe('PublicationDialog', { timeout: 20_000 }, () => {
  beforeEach(() => {
    mocks.mutate.mockReset();
    mocks.publication = PUBLICATION;
    mocks.preview.mockReturnValue({
      chapter: { _id: 'c1', title: 'Tour 1' },
      exercises: [{ _id: 'e1', title: 'Somme', grade: 3, excused: false, maxPoints: 4, comment: '' }],
      total: 3,
      maxTotal: 20,
    });
  });

  it('asks with the count of pupils before publishing now, and publishes only once confirmed', async () => {
    renderWithProviders(<PublicationDialog chapterId="c1" name="Tour 1" initialMode="now" onClose={() => {}} />);
    fireEvent.click(screen.getByLabelText('Montrer aux élèves leur rang et leur centile'));
    // Decision 162: naming the corrector is offered once the copies are returned.
    expect((screen.getByLabelText('Nommer le correcteur sur la copie rendue') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Rendre les copies corrigées aux élèves'));
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publier les résultats ?' });
    expect(within(dialog).getByText(/^1 234 élèves verront leurs notes/)).toBeTruthy();
    expect(mocks.mutate).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publier' }));
    await waitFor(() => expect(mocks.mutate).toHaveBeenCalledTimes(1));
    expect(mocks.mutate.mock.calls[0][0]).toEqual({
      mode: 'now',
      publishAt: null,
      showRank: true,
      qualificationThreshold: null,
      qualificationText: 'Qualifié(e) pour le tour suivant',
      copiesReturned: true,
      correctorNamed: false,
    });
  });

  it('schedules at a Paris time and says when', async () => {
    renderWithProviders(<PublicationDialog chapterId="c1" name="Tour 1" onClose={() => {}} />);
    fireEvent.click(screen.getByLabelText('Programmer la publication'));
    expect((screen.getByRole('button', { name: 'Enregistrer' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Date et heure de publication (heure de Paris)'), { target: { value: '01/12/2026 20 h 35' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Programmer la publication ?' });
    expect(within(dialog).getByText(/le 1er décembre 2026 à 20 h 35 \(heure de Paris\)/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Programmer' }));
    await waitFor(() => expect(mocks.mutate).toHaveBeenCalled());
    expect(mocks.mutate.mock.calls[0][0]).toMatchObject({ mode: 'scheduled', publishAt: '2026-12-01T19:35:00.000Z' });
  });

  it('shows the chosen pupil’s card as a preview', async () => {
    renderWithProviders(<PublicationDialog chapterId="c1" name="Tour 1" onClose={() => {}} />);
    const search = screen.getAllByLabelText('Aperçu pour un élève').find((el) => el.tagName === 'INPUT')!;
    fireEvent.click(search);
    fireEvent.change(search, { target: { value: 'germ' } });
    // Mantine's dropdown is still in its opening transition in jsdom (hidden to the accessibility tree).
    fireEvent.click(await screen.findByRole('option', { name: 'Germain Sophie', hidden: true }));
    const card = await screen.findByRole('region', { name: 'Aperçu de la carte de résultats' });
    expect(within(card).getByText(/^Total\s: 3/)).toBeTruthy();
    expect(mocks.preview).toHaveBeenCalledWith('p1');
  });

  it('asks again with the number of pupils still able to answer when the server refuses, and sends that number (decision 139)', async () => {
    const refusal = new ApiError('http', {
      status: 409,
      data: { message: '2 élèves peuvent encore répondre à ce chapitre.', code: 'still_answering', stillAnswering: 2 },
    });
    mocks.mutate.mockImplementationOnce((_body, options: { onError: (e: unknown) => void }) => options.onError(refusal));
    const onClose = vi.fn();
    renderWithProviders(<PublicationDialog chapterId="c1" name="Tour 1" onClose={onClose} />);
    fireEvent.click(screen.getByLabelText('Publier maintenant'));
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Publier les résultats ?' })).getByRole('button', { name: 'Publier' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Des élèves peuvent encore répondre' });
    expect(within(dialog).getByText(/^2 élèves peuvent encore répondre à ce chapitre/)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publier quand même' }));
    await waitFor(() => expect(mocks.mutate).toHaveBeenCalledTimes(2));
    expect(mocks.mutate.mock.calls[1][0]).toMatchObject({ mode: 'now', confirm: 2 });
  });

  it('takes a French decimal threshold (« 1,5 » is 1.5) and refuses one above the maximum total (decision 139)', async () => {
    renderWithProviders(<PublicationDialog chapterId="c1" name="Tour 1" onClose={() => {}} />);
    const field = screen.getByLabelText('Seuil de qualification (points)');
    fireEvent.change(field, { target: { value: '25' } });
    expect(screen.getByText('Au plus 20 points.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Enregistrer' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(field, { target: { value: '1,5' } });
    fireEvent.click(screen.getByLabelText('Publier maintenant'));
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Publier les résultats ?' })).getByRole('button', { name: 'Publier' }),
    );
    await waitFor(() => expect(mocks.mutate).toHaveBeenCalledTimes(1));
    expect(mocks.mutate.mock.calls[0][0]).toMatchObject({ mode: 'now', qualificationThreshold: 1.5 });
  });

  it('says what unpublishing does', () => {
    expect(publicationMessage({ ...PUBLICATION, published: true }, 'unpublished', null)).toMatch(/ne verront plus leurs résultats/);
  });
});
