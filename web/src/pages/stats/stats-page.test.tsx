import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { ChapterStats } from '@olympe/contract';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { renderWithProviders } from '../../test/render';
import { StatsPage } from './stats-page';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const STATS: ChapterStats = {
  chapter: { _id: 'c1', title: 'Tour 1' },
  exercises: [
    {
      _id: 'e1',
      title: 'Somme',
      answerFormat: 'numeric',
      maxPoints: 4,
      answered: 9,
      graded: 9,
      mean: 1.89,
      median: 1,
      distribution: [
        { grade: 0, count: 4 },
        { grade: 1, count: 1 },
        { grade: 4, count: 4 },
      ],
      versions: [
        {
          version: 0,
          expected: '10',
          pupils: 6,
          top: [
            { answer: '12', count: 4, expected: false },
            { answer: '10', count: 1, expected: true },
          ],
          flagged: true,
        },
        { version: 1, expected: '20', pupils: 3, top: [{ answer: '20', count: 3, expected: true }], flagged: false },
      ],
    },
    {
      _id: 'e2',
      title: 'Preuve',
      answerFormat: 'pdf',
      maxPoints: 7,
      answered: 2,
      graded: 1,
      mean: 6.5,
      median: 6.5,
      distribution: [{ grade: 6.5, count: 1 }],
      versions: [],
    },
  ],
};

function setup(isAdmin: boolean) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles: { ...NO_ROLES, isAdmin, isMember: true } }}>
      <Routes>
        <Route path="/stats/:id" element={<StatsPage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/stats/c1' },
  );
}

beforeEach(() => {
  http.get.mockReset().mockResolvedValue({ data: STATS, status: 200, headers: {} });
  http.post.mockReset().mockResolvedValue({ data: { message: 'ok', graded: 4 }, status: 200, headers: {} });
});

describe('StatsPage', () => {
  it('shows the figures in French, the histogram and the flagged version', async () => {
    setup(false);
    const somme = await screen.findByRole('region', { name: 'Somme (sur 4)' });
    expect(within(somme).getByText('1,89')).toBeTruthy();
    expect(within(somme).getByText(/Répartition des notes \(note\s: copies\) — 0\s: 4\s; 1\s: 1\s; 4\s: 4/)).toBeTruthy();
    const v1 = within(somme).getByRole('region', { name: 'Version 1 de « Somme »' });
    expect(within(v1).getByText('erreur d’énoncé ou de corrigé probable')).toBeTruthy();
    expect(within(v1).getByText('10 (attendue)')).toBeTruthy();
    expect(within(somme).getByRole('region', { name: 'Version 2 de « Somme »' }).textContent).not.toContain('probable');
    // A corrector sees the flag; only an admin may change the expected answer.
    expect(screen.queryByRole('button', { name: /Remplacer/ })).toBeNull();
    expect(screen.getByRole('region', { name: 'Preuve (sur 7)' }).textContent).toContain('6,5');
  });

  it('lets an admin replace a flagged version’s expected answer and re-grade it in one step', async () => {
    setup(true);
    const input = (await screen.findByLabelText('Nouvelle réponse attendue, version 1')) as HTMLInputElement;
    expect(input.value).toBe('12');
    fireEvent.click(screen.getByRole('button', { name: 'Remplacer et corriger à nouveau cette version' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledWith('/stats/c1/errata', { exerciseId: 'e1', version: 0, answer: '12' }));
  });
});
