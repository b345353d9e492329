import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CenterOption } from '@olympe/contract';
import { routeHttp } from '../../test/http-routes';
import { renderWithProviders } from '../../test/render';
import { PoleCenters } from './pole-centers';

const http = vi.hoisted(() => ({ get: vi.fn(), patch: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const LYCEE = {
  _id: 'l1',
  name: 'Lycée Condorcet',
  address: '8 rue du Havre, 75009 Paris',
  email: null,
  latitude: 48.87,
  longitude: 2.33,
  confirmed: true,
  uai: '0750667A',
};
let options: CenterOption[] = [];

beforeEach(() => {
  vi.clearAllMocks();
  options = [];
  routeHttp(http, [
    ['get', /^\/center\/institutions\/c1$/, () => options],
    [
      'get',
      /^\/institution\/search$/,
      (_params, config) => ({
        results: (config as { params: { q: string } }).params.q.toLowerCase().includes('condorcet') ? [LYCEE] : [],
        more: false,
      }),
    ],
    ['patch', /^\/center\/c1$/, () => ({ message: 'ok' })],
  ]);
});

describe('PoleCenters', () => {
  it('finds the school to mark through the server’s search, never the whole directory, and marks it', async () => {
    renderWithProviders(<PoleCenters chapterId="c1" />);
    expect(await screen.findByText('Aucun centre pôle pour ce chapitre.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Désigner un centre pôle' }));
    const mark = screen.getByRole('button', { name: 'Marquer comme centre pôle' }) as HTMLButtonElement;
    expect(mark.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Rechercher un établissement'), { target: { value: 'condorcet' } });
    const results = await screen.findByRole('list', { name: 'Résultats de la recherche' }, { timeout: 2000 });
    fireEvent.click(within(results).getByRole('button', { name: /^Lycée Condorcet/ }));
    expect(screen.getByText('Établissement choisi : Lycée Condorcet')).toBeTruthy();
    fireEvent.click(mark);
    await waitFor(() => expect(http.patch).toHaveBeenCalledWith('/center/c1', { institution: 'l1', isPole: true }));
    expect(http.get.mock.calls.map(([url]) => url)).not.toContain('/institution');
  });
});
