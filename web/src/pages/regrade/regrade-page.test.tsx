import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { RegradeQueue } from '@olympe/contract';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { renderWithProviders } from '../../test/render';
import { RegradePage } from './regrade-page';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), put: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const QUEUE: RegradeQueue = {
  chapter: { _id: 'c1', title: 'Tour 1', regradeUntil: '2026-12-20T17:00:00.000Z', published: true },
  requests: [
    {
      _id: 'r1',
      answerId: 'a1',
      student: { _id: 'u1', firstName: 'Sophie', lastName: 'Germain' },
      exercise: { _id: 'e1', title: 'Somme', maxPoints: 5 },
      message: 'La ligne 3 est juste.',
      status: 'open',
      reply: null,
      oldGrade: '2',
      newGrade: null,
      grade: '2',
      createdAt: '2026-12-01T09:00:00.000Z',
      handledAt: null,
      handledBy: null,
      page: 1,
      region: { x: 0.1, y: 0.2, w: 0.3, h: 0.1 },
      annotation: null,
    },
    {
      _id: 'r2',
      answerId: 'a2',
      student: { _id: 'u2', firstName: null, lastName: null, pseudonym: 'Copie 0042' },
      exercise: { _id: 'e2', title: 'Produit', maxPoints: 7 },
      message: 'Revoir ma copie.',
      status: 'declined',
      reply: 'Le résultat est faux.',
      oldGrade: '0',
      newGrade: null,
      grade: '0',
      createdAt: '2026-11-30T09:00:00.000Z',
      handledAt: '2026-12-01T10:00:00.000Z',
      handledBy: { _id: 'm1', firstName: 'Paul', lastName: 'Erdős' },
      annotation: { id: 'n1', page: 0, text: 'Hypothèse non justifiée' },
    },
  ],
};

function setup(isAdmin: boolean) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles: { ...NO_ROLES, isAdmin, isMember: true } }}>
      <Routes>
        <Route path="/regrade/:id" element={<RegradePage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/regrade/c1' },
  );
}

beforeEach(() => {
  http.get.mockReset().mockResolvedValue({ data: QUEUE, status: 200, headers: {} });
  http.post.mockReset().mockResolvedValue({ data: { message: 'ok' }, status: 200, headers: {} });
  http.put.mockReset().mockResolvedValue({ data: { message: 'ok' }, status: 200, headers: {} });
});

describe('RegradePage', () => {
  it('accepts an open request with a new grade and a reply, and links to the copy', async () => {
    setup(false);
    const open = await screen.findByRole('article', { name: 'Demande de Sophie Germain, Somme' });
    expect(screen.getByText(/1 demande en attente/)).toBeTruthy();
    // Decision 162: where on the copy the pupil points.
    expect(within(open).getByText('Page 2, zone marquée')).toBeTruthy();
    expect(screen.getByText(/^Page 1\s: Hypothèse non justifiée$/)).toBeTruthy();
    expect(within(open).getByRole('link', { name: 'Voir la copie de Sophie Germain' }).getAttribute('href')).toBe('/history/u1/e1');
    const accept = within(open).getByRole('button', { name: 'Accepter avec cette note' });
    expect((accept as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(open).getByLabelText('Nouvelle note (sur 5)'), { target: { value: '4,5' } });
    fireEvent.change(within(open).getByLabelText(/Réponse à l’élève/), { target: { value: 'Vous avez raison.' } });
    fireEvent.click(accept);
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/regrade/r1/accept', { grade: '4,5', reply: 'Vous avez raison.' }));
    // A corrector who is not an admin does not set the closing date.
    expect(screen.queryByLabelText(/Date de clôture/)).toBeNull();
  });

  it('declines, shows handled requests with their reply and pseudonym, and lets an admin set the closing date', async () => {
    setup(true);
    const handled = await screen.findByRole('article', { name: 'Demande de Copie 0042, Produit' });
    expect(within(handled).getByText('Refusée')).toBeTruthy();
    expect(within(handled).getByText(/Réponse de Paul Erdős le 1er décembre 2026 à 11 h 00/)).toBeTruthy();
    const open = screen.getByRole('article', { name: 'Demande de Sophie Germain, Somme' });
    fireEvent.change(within(open).getByLabelText(/Réponse à l’élève/), { target: { value: 'Non.' } });
    fireEvent.click(within(open).getByRole('button', { name: 'Refuser' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/regrade/r1/decline', { reply: 'Non.' }));

    const date = screen.getByLabelText(/Date de clôture des réexamens/) as HTMLInputElement;
    expect(date.value).toBe('20/12/2026 18 h 00');
    fireEvent.change(date, { target: { value: '24/12/2026 12 h 30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer la date' }));
    await waitFor(() => expect(http.put).toHaveBeenCalledWith('/regrade/window/c1', { regradeUntil: '2026-12-24T11:30:00.000Z' }));
  });
});
