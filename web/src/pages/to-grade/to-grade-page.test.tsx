import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Assignments, GradingTable } from '@olympe/contract';
import { computeRoles } from '../../session/roles';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { makeUser } from '../../test/fixtures';
import { routeHttp } from '../../test/http-routes';
import { renderWithProviders } from '../../test/render';
import { ToGradePage } from './to-grade-page';

const http = vi.hoisted(() => ({ get: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));

const CHAPTERS = [
  { _id: 'c1', title: 'Coupe Olympe 2026 — premier tour', analysis: false, offline: true },
  { _id: 'c2', title: 'Entraînement', analysis: false, offline: false },
  { _id: 'c3', title: 'Coupe Olympe 2026 — second tour', analysis: false, offline: true },
];

function headerOf(id: string, counts: Array<{ graded: number; answered: number }>): GradingTable {
  const chapter = CHAPTERS.find((c) => c._id === id)!;
  return {
    chapter: { _id: id, title: chapter.title, offline: chapter.offline, analysis: false },
    exercises: counts.map((_, i) => ({ _id: `${id}-e${i + 1}`, title: `Exercice ${i + 1}`, answerFormat: 'text' })),
    page: { next: null, counts },
    users: {},
  };
}

const HEADERS: Record<string, GradingTable> = {
  c1: headerOf('c1', [
    { graded: 2, answered: 5 },
    { graded: 0, answered: 4 },
  ]),
  c2: headerOf('c2', [{ graded: 8, answered: 8 }]),
  c3: headerOf('c3', [{ graded: 0, answered: 6 }]),
};
const ASSIGNMENTS: Record<string, Assignments> = {
  // The second exercise of the first tour is another corrector's; the second tour's only exercise too.
  c1: {
    exercises: [
      { _id: 'c1-e1', title: 'Exercice 1', correctors: [] },
      { _id: 'c1-e2', title: 'Exercice 2', correctors: ['m2'] },
    ],
    correctors: [],
  },
  c2: { exercises: [{ _id: 'c2-e1', title: 'Exercice 1', correctors: [] }], correctors: [] },
  c3: { exercises: [{ _id: 'c3-e1', title: 'Exercice 1', correctors: ['m2'] }], correctors: [] },
};

function renderPage(user = makeUser({ _id: 'm1', isMember: true })) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', user, chapters: CHAPTERS, roles: computeRoles(user, []) }}>
      <ToGradePage />
    </SessionContext.Provider>,
  );
}

describe('ToGradePage', () => {
  beforeEach(() => {
    http.get.mockClear();
    routeHttp(http, [
      ['get', /^\/answer\/table\/(\w+)$/, ([id]) => HEADERS[id]],
      ['get', /^\/chapter\/(\w+)\/assignments$/, ([id]) => ASSIGNMENTS[id]],
    ]);
  });

  it('lists the chapters with copies waiting for this corrector, and in each the exercises that are theirs', async () => {
    renderPage();
    const section = await screen.findByRole('region', { name: 'Coupe Olympe 2026 — premier tour' });
    expect(within(section).getByText('3 copies à corriger')).toBeTruthy();
    expect(within(section).getByText(/Exercice 1/).textContent).toBe('Exercice 1\u00a0: 3 copies à corriger');
    // Assigned to another corrector: not theirs.
    expect(within(section).queryByText(/Exercice 2/)).toBeNull();
    expect(within(section).getByRole('link', { name: 'Corriger' }).getAttribute('href')).toBe('/grader/c1');
    // All graded, or only others' exercises: not listed.
    expect(screen.queryByRole('region', { name: 'Entraînement' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Coupe Olympe 2026 — second tour' })).toBeNull();
    // Read from the grading table's header (limit=0), no route of its own.
    expect(http.get).toHaveBeenCalledWith('/answer/table/c1', expect.objectContaining({ params: { limit: 0 } }));
  });

  it('asks the assignments only of the chapters with copies waiting, and never for an admin', async () => {
    renderPage();
    await screen.findByRole('region', { name: 'Coupe Olympe 2026 — premier tour' });
    const asked = () => http.get.mock.calls.map(([url]) => String(url)).filter((url) => url.endsWith('/assignments'));
    expect(asked().sort()).toEqual(['/chapter/c1/assignments', '/chapter/c3/assignments']);
  });

  it('shows an admin every exercise waiting, without asking who is assigned', async () => {
    renderPage(makeUser({ _id: 'a1', isAdmin: true }));
    const second = await screen.findByRole('region', { name: 'Coupe Olympe 2026 — second tour' });
    expect(within(second).getByText('6 copies à corriger')).toBeTruthy();
    expect(http.get.mock.calls.some(([url]) => String(url).endsWith('/assignments'))).toBe(false);
  });

  it('says when nothing waits', async () => {
    HEADERS.c1 = headerOf('c1', [
      { graded: 5, answered: 5 },
      { graded: 0, answered: 4 },
    ]);
    renderPage();
    expect(await screen.findByText(/Rien à corriger pour le moment/)).toBeTruthy();
  });
});
