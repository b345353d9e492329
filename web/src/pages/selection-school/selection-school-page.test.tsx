import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublishedSelection, SchoolQualified } from '@olympe/contract';
import { ApiError } from '../../api/client';
import { renderWithProviders } from '../../test/render';
import { SelectionSchoolPage } from './selection-school-page';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn(), patch: vi.fn(), delete: vi.fn() }));
vi.mock('../../api/client', async (orig) => ({ ...(await orig<typeof import('../../api/client')>()), api: http }));

const SELECTION: PublishedSelection = {
  _id: 's1',
  title: 'Sélection pour le tour 2',
  nextRoundTitle: 'le tour 2',
  nextRoundDate: '2027-03-13',
  nextRoundPlace: 'Lycée du Parc',
};
const PUPILS: SchoolQualified = [
  { _id: 'u2', firstName: 'Zoé', lastName: 'Martin', grade: '2nde', category: 'Seconde', score: 30.5 },
  { _id: 'u1', firstName: 'Léo', lastName: 'Dubois', grade: '3eme', category: 'Collège', score: 41 },
];

function serve(pupils: SchoolQualified | Error) {
  http.get.mockImplementation(async (url: string) => {
    if (url === '/selection/published') return { data: [SELECTION] };
    if (url === '/selection/s1/school') {
      if (pupils instanceof Error) throw pupils;
      return { data: pupils };
    }
    if (url === '/selection/s1/school.xlsx') return { data: new Blob(['xlsx']) };
    throw new Error(`unexpected ${url}`);
  });
}

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path="selections/school" element={<SelectionSchoolPage />} />
      <Route path="selections/:id/school" element={<SelectionSchoolPage />} />
    </Routes>,
    { route },
  );

const { createObjectURL, revokeObjectURL } = URL;

describe('SelectionSchoolPage (docs/product.md#selections)', () => {
  beforeEach(() => {
    http.get.mockReset();
  });
  afterEach(() => Object.assign(URL, { createObjectURL, revokeObjectURL }));

  it('lists the school’s qualified pupils in name order, with class, category and score, and downloads the XLSX', async () => {
    serve(PUPILS);
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    renderAt('/selections/s1/school');
    const table = await screen.findByRole('table', { name: 'Élèves qualifiés de l’établissement' });
    const rows = [...table.querySelectorAll('tbody tr')].map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Dubois Léo', '3ème', 'Collège', '41'],
      ['Martin Zoé', '2nde', 'Seconde', '30,5'],
    ]);
    expect(screen.getByText('Tour suivant : le tour 2 — 13 mars 2027, Lycée du Parc')).toBeTruthy();
    expect(screen.getByText('2 élèves qualifiés')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Exporter en XLSX' }));
    await waitFor(() => expect(http.get.mock.calls.map((c) => c[0])).toContain('/selection/s1/school.xlsx'));
  });

  it('passes an admin’s chosen school on to the list', async () => {
    serve([]);
    renderAt('/selections/s1/school?institution=i9');
    expect(await screen.findByText('Aucun élève de votre établissement n’est qualifié.')).toBeTruthy();
    const call = http.get.mock.calls.find((c) => c[0] === '/selection/s1/school')!;
    expect(call[1]).toMatchObject({ params: { institution: 'i9' } });
  });

  it('shows the server’s refusal in French', async () => {
    serve(new ApiError('http', { status: 403, data: { message: 'Vous n’avez pas accès à cet établissement.', code: 'forbidden' } }));
    renderAt('/selections/s1/school');
    expect(await screen.findByText('Vous n’avez pas accès à cet établissement.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('without a selection, lists the published ones as links', async () => {
    serve([]);
    renderAt('/selections/school');
    const link = await screen.findByRole('link', { name: 'Sélection pour le tour 2' });
    expect(link.getAttribute('href')).toBe('/selections/s1/school');
    expect(http.get.mock.calls.map((c) => c[0])).not.toContain('/selection/s1/school');
  });
});
