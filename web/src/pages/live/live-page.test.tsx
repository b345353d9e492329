import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { LiveChapter } from '@olympe/contract';
import { NO_ROLES } from '../../session/roles';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { renderWithProviders } from '../../test/render';
import { RequireRole } from '../../layout/require-role';
import { LivePage } from './live-page';
import { liveFigures, minuteLabels } from './live';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const LIVE: LiveChapter = {
  chapterId: 'c1',
  title: 'Tour 1',
  at: '2026-03-12T09:05:00.000Z',
  started: 812,
  inProgress: 640,
  finished: 172,
  savingLastMinute: 301,
  answersLastMinute: 455,
  blurEvents: 37,
  blurEventsLastMinute: 2,
  serverErrorsLastFiveMinutes: 1,
  savesPerMinute: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 120, 300, 420, 455],
  extraTimePupils: 14,
  extensions: [
    {
      user: { _id: 'p1', firstName: 'Sophie', lastName: 'Germain', email: 'sophie@exemple.fr' },
      minutes: 10,
      reason: 'Panne de courant salle 3',
      by: 'Alice Admin',
      at: '2026-03-12T09:02:00.000Z',
    },
  ],
};

function renderAs(isAdmin: boolean) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles: { ...NO_ROLES, isAdmin } }}>
      <Routes>
        <Route
          path="/live/:id"
          element={
            <RequireRole role="admin">
              <LivePage />
            </RequireRole>
          }
        />
      </Routes>
    </SessionContext.Provider>,
    { route: '/live/c1' },
  );
}

describe('live helpers', () => {
  it('flags server errors and labels minutes oldest first', () => {
    const figures = liveFigures(LIVE);
    expect(figures.map((f) => f.label)).toEqual([
      'Élèves ayant commencé',
      'En cours',
      'Terminé',
      'Avec temps supplémentaire',
      'Enregistrent (dernière minute)',
      'Pertes de focus',
      'Erreurs serveur (5 dernières minutes)',
    ]);
    expect(figures.filter((f) => f.alert).map((f) => f.label)).toEqual(['Erreurs serveur (5 dernières minutes)']);
    expect(liveFigures({ ...LIVE, serverErrorsLastFiveMinutes: 0 }).some((f) => f.alert)).toBe(false);
    expect(minuteLabels(3)).toEqual(['il y a 2 min', 'il y a 1 min', 'minute en cours']);
  });
});

describe('LivePage', () => {
  beforeEach(() => http.get.mockReset());

  it('shows an admin the figures of the chapter and a table of saves per minute', async () => {
    http.get.mockResolvedValue({ data: LIVE });
    renderAs(true);
    expect(await screen.findByRole('heading', { name: 'En direct : Tour 1' })).toBeTruthy();
    expect(http.get).toHaveBeenCalledWith('/chapter/c1/live');
    expect(within(screen.getByRole('group', { name: 'Élèves ayant commencé' })).getByText('812')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Enregistrent (dernière minute)' })).getByText('455 réponses')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Erreurs serveur (5 dernières minutes)' })).getByText('à surveiller')).toBeTruthy();
    const table = screen.getByRole('table', { name: /Réponses enregistrées par minute/ });
    expect(within(table).getByRole('row', { name: 'minute en cours 455' })).toBeTruthy();
  });

  it('lists the extensions with who and why, and adds one for a pupil named by e-mail', async () => {
    http.get.mockResolvedValue({ data: LIVE });
    http.post.mockResolvedValue({ data: undefined });
    renderAs(true);
    expect(within(await screen.findByRole('group', { name: 'Avec temps supplémentaire' })).getByText('14')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Prolongations' });
    expect(within(table).getByText('Panne de courant salle 3')).toBeTruthy();
    expect(within(table).getByText('12 mars 2026 à 10 h 02')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/E-mail de l’élève/), { target: { value: 'leo@exemple.fr' } });
    fireEvent.change(screen.getByLabelText(/Minutes ajoutées/), { target: { value: '15' } });
    fireEvent.change(screen.getByLabelText(/Raison/), { target: { value: 'Ordinateur bloqué' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ajouter la prolongation' }));
    await waitFor(() =>
      expect(http.post).toHaveBeenCalledWith('/chapter/c1/extension', {
        email: 'leo@exemple.fr',
        minutes: 15,
        reason: 'Ordinateur bloqué',
      }),
    );
  });

  it('tells a non-admin they have no access and asks nothing from the server', async () => {
    renderAs(false);
    expect(screen.getByText('Vous n’avez pas accès à cette ressource.')).toBeTruthy();
    expect(http.get).not.toHaveBeenCalled();
  });
});
