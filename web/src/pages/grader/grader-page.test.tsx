import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { GradingTable } from '@olympe/contract';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { renderWithProviders } from '../../test/render';
import { autoCorrectionMessage, GraderPage } from './grader-page';

const api = vi.hoisted(() => ({
  fetchGradingTable: vi.fn(),
  fetchUnlabeledCount: vi.fn(),
  runAutoCorrection: vi.fn(),
  selectNextAnswer: vi.fn(),
}));
vi.mock('../../api/grading', () => ({
  ...api,
  gradingKeys: { table: (id: string) => ['t', id], unlabeled: (id: string) => ['u', id] },
}));
const results = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../api/results', () => ({
  useAutoCorrectionCount: (_id: string, enabled: boolean) => ({ data: enabled ? results.count : undefined }),
}));

const TABLE: GradingTable = {
  chapter: { _id: 'c1', title: 'Demi-finale', offline: true, analysis: false },
  exercises: [
    { _id: 'e1', title: 'Somme', answerFormat: 'numeric' },
    { _id: 'e2', title: 'Preuve', answerFormat: 'pdf' },
  ],
  users: {
    u1: { firstName: 'Zoé', lastName: 'Martin', email: 'z@x.fr', grade: '2nde', gender: 'female', birthDate: null, data: ['3', '?'] },
    u2: { firstName: 'Hugo', lastName: 'Élie', email: 'h@x.fr', grade: '2nde', gender: 'male', birthDate: null, data: ['X', ' '] },
  },
};

function setup(isAdmin: boolean) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles: { ...NO_ROLES, isAdmin, isMember: true } }}>
      <Routes>
        <Route path="/grader/:id" element={<GraderPage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/grader/c1', targets: { '/history/:uid/:eid': 'Page historique' } },
  );
}

describe('GraderPage', () => {
  beforeEach(() => {
    Object.values(api).forEach((fn) => fn.mockReset());
    api.fetchGradingTable.mockResolvedValue(TABLE);
    api.fetchUnlabeledCount.mockResolvedValue(4);
  });

  it('shows the title, counters, sorting and review links, rows by last name and coloured cells', async () => {
    setup(false);
    expect(await screen.findByRole('heading', { name: 'Correction : Demi-finale' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Triage : 4 fichiers' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Revue' }).getAttribute('href')).toBe('/overview/c1');
    expect(screen.getByText('2/2 élèves')).toBeTruthy();
    expect(screen.getByText('2/3 copies corrigées')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Exporter en CSV/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Correction automatique/ })).toBeNull();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    // Header, then Élie before Martin (accent-insensitive sort).
    expect(rows[1].textContent).toContain('Élie');
    expect(rows[2].textContent).toContain('Martin');
    const cell = screen.getByRole('link', { name: 'Zoé Martin, Somme : note 3' });
    expect(cell.getAttribute('href')).toBe('/history/u1/e1');
    expect(screen.getByRole('link', { name: 'Zoé Martin, Preuve : à corriger' }).textContent).toBe('?');
    expect(screen.getByRole('link', { name: 'Hugo Élie, Somme : X' })).toBeTruthy();
    expect(rows[2].textContent).toContain('3');
  });

  it('filters by name without accents and opens the next copy from a header', async () => {
    api.selectNextAnswer.mockResolvedValue({ url: 'u1/e2' });
    setup(true);
    fireEvent.change(await screen.findByLabelText('Rechercher par nom ou prénom'), { target: { value: 'elie' } });
    await waitFor(() => expect(screen.getByText('1/2 élèves')).toBeTruthy());
    expect(screen.getByRole('button', { name: /Exporter en CSV/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Corriger la copie suivante : Preuve' }));
    expect(await screen.findByText('Page historique')).toBeTruthy();
    expect(api.selectNextAnswer).toHaveBeenCalledWith('e2');
  });

  it('asks with the count of copies before the automatic correction, then runs it and reloads the table', async () => {
    api.runAutoCorrection.mockResolvedValue({ message: 'ok', graded: 1, unchanged: 0 });
    results.count = 1234;
    setup(true);
    fireEvent.click(await screen.findByRole('button', { name: /Correction automatique/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Lancer la correction automatique ?' });
    // The matcher folds spaces; the message itself keeps French no-break spaces.
    expect(await within(dialog).findByText(/^1 234 copies seront notées/)).toBeTruthy();
    expect(autoCorrectionMessage(1234)).toMatch(/^1\u202f234\u00a0copies seront notées/);
    expect(autoCorrectionMessage(1)).toMatch(/^1\u00a0copie sera notée/);
    expect(api.runAutoCorrection).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.runAutoCorrection).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: /Correction automatique/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Lancer la correction' }));
    await waitFor(() => expect(api.fetchGradingTable).toHaveBeenCalledTimes(2));
    expect(api.runAutoCorrection).toHaveBeenCalledWith('c1');
  });
});
