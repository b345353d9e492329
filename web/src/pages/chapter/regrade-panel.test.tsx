import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MyRegrades, ReturnedCopies } from '@olympe/contract';
import { renderWithProviders } from '../../test/render';
import { RegradePanel } from './regrade-panel';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const MINE: MyRegrades = {
  open: true,
  regradeUntil: '2026-12-20T17:00:00.000Z',
  answers: [
    { answerId: 'a1', exercise: { _id: 'e1', title: 'Somme', maxPoints: 5 }, grade: '2' },
    { answerId: 'a2', exercise: { _id: 'e2', title: 'Produit', maxPoints: 7 }, grade: '6.5' },
  ],
  requests: [
    {
      _id: 'r1',
      exercise: { _id: 'e2', title: 'Produit' },
      message: 'Revoir ma copie.',
      status: 'accepted',
      reply: 'Vous avez raison.',
      oldGrade: '5',
      newGrade: '6.5',
      createdAt: '2026-12-01T09:00:00.000Z',
      handledAt: '2026-12-02T09:00:00.000Z',
      page: 1,
      region: { x: 0.2, y: 0.1, w: 0.4, h: 0.1 },
    },
  ],
};

const COPIES: ReturnedCopies = {
  chapter: { _id: 'c1', title: 'Tour 1' },
  exercises: [
    {
      ...{ _id: 'e1', title: 'Somme', grade: 2, excused: false, maxPoints: 5, comment: '', pdf: null, items: [] },
      layers: [{ annotations: [{ id: 'n1', page: 1, kind: 'note', x: 0.1, y: 0.5, text: 'Hypothèse non justifiée' }] }],
    },
  ],
};

beforeEach(() => {
  http.get.mockReset().mockResolvedValue({ data: MINE, status: 200, headers: {} });
  http.post.mockReset().mockResolvedValue({ data: { message: 'Demande de réexamen envoyée' }, status: 201, headers: {} });
});

describe('RegradePanel', () => {
  it('shows the status and the reply of a request, with the grades in French', async () => {
    renderWithProviders(<RegradePanel chapterId="c1" />);
    const card = await screen.findByRole('article', { name: 'Réexamen : Produit' });
    expect(within(card).getByText('Acceptée')).toBeTruthy();
    expect(within(card).getByText('Nouvelle note : 6,5 (avant : 5)')).toBeTruthy();
    expect(within(card).getByText('Vous avez raison.')).toBeTruthy();
    expect(within(card).getByTestId('regrade-place').textContent).toBe('Page 2, zone marquée');
    expect(screen.getByText(/jusqu’au 20 décembre 2026 à 18 h 00/)).toBeTruthy();
  });

  it('sends a request about one answer with a message', async () => {
    renderWithProviders(<RegradePanel chapterId="c1" />);
    const button = await screen.findByRole('button', { name: 'Demander un réexamen' });
    fireEvent.click(screen.getByPlaceholderText('Choisissez l’exercice'));
    // An exercise whose request was answered may be asked about again.
    expect(await screen.findByRole('option', { name: 'Produit (6,5 sur 7)', hidden: true })).toBeTruthy();
    fireEvent.click(await screen.findByRole('option', { name: 'Somme (2 sur 5)', hidden: true }));
    fireEvent.change(screen.getByLabelText(/Votre message/), { target: { value: 'La ligne 3 est juste.' } });
    fireEvent.click(button);
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/regrade', { answerId: 'a1', message: 'La ligne 3 est juste.' }));
  });

  it('points at one of the corrector’s marks once the chapter returns its copies (decision 162)', async () => {
    http.get.mockImplementation(async (url: string) => ({
      data: url === '/results/c1/copies' ? COPIES : url === '/results/c1' ? { copiesReturned: true } : MINE,
      status: 200,
      headers: {},
    }));
    renderWithProviders(<RegradePanel chapterId="c1" />);
    const button = await screen.findByRole('button', { name: 'Demander un réexamen' });
    fireEvent.click(screen.getByPlaceholderText('Choisissez l’exercice'));
    fireEvent.click(await screen.findByRole('option', { name: 'Somme (2 sur 5)', hidden: true }));
    // No PDF answer: nothing to draw a box on, only the marks to react to.
    expect(screen.queryByLabelText('Désigner une zone de la copie')).toBeNull();
    fireEvent.click(await screen.findByLabelText('Réagir à une annotation'));
    fireEvent.click(screen.getByPlaceholderText('Choisissez l’annotation'));
    fireEvent.click(await screen.findByRole('option', { name: 'Page 2\u00a0: Hypothèse non justifiée', hidden: true }));
    fireEvent.change(screen.getByLabelText(/Votre message/), { target: { value: 'Elle est justifiée ligne 2.' } });
    fireEvent.click(button);
    await waitFor(() =>
      expect(http.post).toHaveBeenCalledWith('/regrade', { answerId: 'a1', message: 'Elle est justifiée ligne 2.', annotationId: 'n1' }),
    );
  });

  it('shows nothing when requests are closed and the pupil made none', async () => {
    http.get.mockResolvedValue({ data: { ...MINE, open: false, regradeUntil: null, requests: [] }, status: 200, headers: {} });
    const { container } = renderWithProviders(<RegradePanel chapterId="c1" />);
    await waitFor(() => expect(http.get).toHaveBeenCalled());
    expect(container.textContent).not.toContain('réexamen');
  });
});
