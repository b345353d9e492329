import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { GradingTable } from '@olympe/contract';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { renderWithProviders } from '../../test/render';
import { routeHttp } from '../../test/http-routes';
import { GraderPage } from './grader-page';
import { autoCorrectionMessage } from './grading-actions';

const api = vi.hoisted(() => ({
  fetchGradingHeader: vi.fn(),
  fetchGradingPage: vi.fn(),
  fetchGradingTable: vi.fn(),
  fetchUnlabeledCount: vi.fn(),
  runAutoCorrection: vi.fn(),
  selectNextAnswer: vi.fn(),
}));
const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
type Query = { params?: { limit?: number; after?: string; q?: string } };
routeHttp(http, [
  [
    'get',
    /^\/answer\/table\/([^/]+)$/,
    ([c], options) => {
      const p = (options as Query | undefined)?.params ?? {};
      if (p.limit === 0) return api.fetchGradingHeader(c, p.q ?? '');
      if (p.limit !== undefined) return api.fetchGradingPage(c, { after: p.after ?? null, q: p.q ?? '' });
      return api.fetchGradingTable(c);
    },
  ],
  ['get', /^\/answer\/unlabeled\/stats\/([^/]+)$/, async ([c]) => ({ count: await api.fetchUnlabeledCount(c) })],
  ['get', /^\/answer\/select\/([^/]+)$/, ([e]) => api.selectNextAnswer(e)],
  ['post', /^\/answer\/auto\/([^/]+)$/, ([c]) => api.runAutoCorrection(c)],
]);
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
  // The server's order (decision 83): the page keeps it.
  users: {
    u2: { firstName: 'Hugo', lastName: 'Élie', email: 'h@x.fr', grade: '2nde', gender: 'male', birthDate: null, data: ['X', ' '] },
    u1: { firstName: 'Zoé', lastName: 'Martin', email: 'z@x.fr', grade: '2nde', gender: 'female', birthDate: null, data: ['3', '?'] },
  },
  page: {
    next: null,
    pupils: 2,
    matched: 2,
    counts: [
      { graded: 2, answered: 2 },
      { graded: 0, answered: 1 },
    ],
  },
};
/** What the server answers to the search « elie ». */
const ELIE: GradingTable = { ...TABLE, users: { u2: TABLE.users.u2 }, page: { ...TABLE.page!, matched: 1 } };

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
    api.fetchGradingPage.mockImplementation(async (_id: string, params: { q: string }) => (params.q ? ELIE : TABLE));
    api.fetchGradingHeader.mockImplementation(async (_id: string, q: string) => (q ? ELIE : TABLE));
    api.fetchUnlabeledCount.mockResolvedValue(4);
  });

  it('shows the title, counters, sorting and review links, rows in the server’s order and coloured cells', async () => {
    setup(false);
    expect(await screen.findByRole('heading', { name: 'Correction : Demi-finale' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Triage : 4 fichiers' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Revue' }).getAttribute('href')).toBe('/overview/c1');
    expect(await screen.findByText('2/2 élèves')).toBeTruthy();
    expect(screen.getByText('2/3 copies corrigées')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Exporter en CSV/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Correction automatique/ })).toBeNull();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    // Header, then the rows as the server sent them.
    expect(rows[1].textContent).toContain('Élie');
    expect(rows[2].textContent).toContain('Martin');
    const cell = screen.getByRole('link', { name: 'Zoé Martin, Somme : note 3' });
    expect(cell.getAttribute('href')).toBe('/history/u1/e1');
    expect(screen.getByRole('link', { name: 'Zoé Martin, Preuve : à corriger' }).textContent).toBe('?');
    expect(screen.getByRole('link', { name: 'Hugo Élie, Somme : X' })).toBeTruthy();
    expect(rows[2].textContent).toContain('3');
  });

  it('filters by name without accents and opens the next copy from a header', async () => {
    api.selectNextAnswer.mockResolvedValue({ url: 'u1/e2' });
    setup(true);
    fireEvent.change(await screen.findByLabelText('Rechercher par nom ou prénom'), { target: { value: 'Élie' } });
    // The rows loaded narrow at once; the server's answer (searched there) brings the count.
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2));
    await waitFor(() => expect(screen.getByText('1/2 élèves')).toBeTruthy());
    expect(api.fetchGradingPage).toHaveBeenCalledWith('c1', { after: null, q: 'elie' });
    expect(api.fetchGradingHeader).toHaveBeenCalledWith('c1', 'elie');
    expect(screen.getByRole('button', { name: /Exporter en CSV/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^Corriger la copie suivante\s: Preuve/ }));
    expect(await screen.findByText('Page historique')).toBeTruthy();
    expect(api.selectNextAnswer).toHaveBeenCalledWith('e2');
  });

  it('names each exercise header by its visible text, and wraps it between words only (decision 141)', async () => {
    setup(false);
    await screen.findByText('2/3 copies corrigées');
    const headers = document.querySelectorAll<HTMLElement>('[data-exercise-header]');
    expect(headers).toHaveLength(2);
    for (const header of headers) {
      // axe « label-content-name-mismatch »: no aria-label hiding the counts; the name is the content, visible text included.
      expect(header.getAttribute('aria-label')).toBeNull();
      expect(header.lang).toBe('fr');
      expect(header.style.overflowWrap).toBe('normal');
      expect(header.style.wordBreak).toBe('normal');
      expect(header.style.hyphens).toBe('auto');
    }
    const preuve = screen.getByRole('button', { name: /^Corriger la copie suivante\s: Preuve/ });
    expect(preuve.textContent).toBe('Corriger la copie suivante : Preuve0 / 1(0 corrigée sur 1 réponse)');
  });

  it('asks with the count of copies before the automatic correction, then runs it and reloads the table', async () => {
    api.runAutoCorrection.mockResolvedValue({ message: 'ok', graded: 1, unchanged: 0 });
    results.count = 1234;
    setup(true);
    fireEvent.click(await screen.findByRole('button', { name: /Correction automatique/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Lancer la correction automatique ?' });
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
    await waitFor(() => expect(api.fetchGradingPage).toHaveBeenCalledTimes(2));
    expect(api.runAutoCorrection).toHaveBeenCalledWith('c1');
  });

  it('loads the next page when the rows in view reach the end of those loaded', async () => {
    const first: GradingTable = { ...TABLE, page: { next: 'u1' } };
    api.fetchGradingHeader.mockResolvedValue({ ...TABLE, users: {}, page: { ...TABLE.page!, pupils: 3, matched: 3 } });
    const second: GradingTable = {
      ...TABLE,
      progress: undefined,
      users: {
        u3: { firstName: 'Ada', lastName: 'Noether', email: 'a@x.fr', grade: null, gender: null, birthDate: null, data: ['?', ' '] },
      },
      page: { next: null },
    };
    api.fetchGradingPage.mockImplementation(async (_id: string, params: { after: string | null }) =>
      params.after === 'u1' ? second : first,
    );
    setup(false);
    expect(await screen.findByRole('link', { name: 'Ada Noether, Somme : à corriger' })).toBeTruthy();
    expect(api.fetchGradingPage).toHaveBeenCalledWith('c1', { after: 'u1', q: '' });
    expect(api.fetchGradingPage).toHaveBeenCalledTimes(2);
    expect(screen.getByText('3/3 élèves')).toBeTruthy();
    // The header's counts are the whole chapter's (its own request), not those of the rows loaded.
    expect(screen.getByText('2/3 copies corrigées')).toBeTruthy();
  });
});
