import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BinEntry } from '@olympe/contract';
import { renderWithProviders } from '../../test/render';
import { BinPage } from './bin-page';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const ENTRIES: BinEntry[] = [
  {
    kind: 'chapter',
    _id: 'c1',
    title: 'Tour 1',
    chapterTitle: 'Tour 1',
    chapterDeleted: true,
    deletedAt: '2026-11-20T09:00:00.000Z',
    purgeAfter: '2026-12-20T09:00:00.000Z',
    answers: 1234,
  },
  {
    kind: 'exercise',
    _id: 'e1',
    title: 'Somme',
    chapterTitle: 'Tour 1',
    chapterDeleted: true,
    deletedAt: '2026-11-19T09:00:00.000Z',
    purgeAfter: '2026-12-19T09:00:00.000Z',
    answers: 1,
  },
  {
    kind: 'exercise',
    _id: 'e2',
    title: 'Produit',
    chapterTitle: 'Tour 2',
    chapterDeleted: false,
    deletedAt: '2026-11-18T09:00:00.000Z',
    purgeAfter: '2026-12-18T09:00:00.000Z',
    answers: 0,
  },
];

beforeEach(() => {
  http.get.mockReset().mockResolvedValue({ data: ENTRIES, status: 200, headers: {} });
  http.post.mockReset().mockResolvedValue({ data: { message: 'Chapitre restauré' }, status: 200, headers: {} });
});

describe('BinPage', () => {
  it('lists what was deleted with its dates and answers, and restores a chapter', async () => {
    renderWithProviders(<BinPage />);
    const row = (await screen.findByText('Chapitre « Tour 1 »')).closest('tr')!;
    expect(within(row).getByText('20 novembre 2026 à 10 h 00')).toBeTruthy();
    expect(within(row).getByText(/1\s234 réponses/)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Restaurer : Chapitre « Tour 1 »' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/chapter/c1/restore'));
    await waitFor(() => expect(http.get).toHaveBeenCalledTimes(2));
  });

  it('sends an exercise of a binned chapter back to its chapter first, and restores a lone exercise', async () => {
    renderWithProviders(<BinPage />);
    const inBinnedChapter = (await screen.findByText('Exercice « Somme » (chapitre « Tour 1 »)')).closest('tr')!;
    expect(within(inBinnedChapter).queryByRole('button')).toBeNull();
    expect(within(inBinnedChapter).getByText('Restaurez d’abord son chapitre.')).toBeTruthy();
    const lone = screen.getByText('Exercice « Produit » (chapitre « Tour 2 »)').closest('tr')!;
    expect(within(lone).getByText('aucune réponse')).toBeTruthy();
    fireEvent.click(within(lone).getByRole('button', { name: /Restaurer/ }));
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/exos/e2/restore'));
  });

  it('says when the bin is empty', async () => {
    http.get.mockResolvedValue({ data: [], status: 200, headers: {} });
    renderWithProviders(<BinPage />);
    expect(await screen.findByText('La corbeille est vide.')).toBeTruthy();
  });
});
