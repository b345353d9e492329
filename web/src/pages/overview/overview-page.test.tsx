import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import type { OverviewPage as Page, OverviewRow } from '@olympe/contract';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES } from '../../session/roles';
import { renderWithProviders } from '../../test/render';
import { routeHttp } from '../../test/http-routes';
import { OverviewPage } from './overview-page';

type Params = { limit?: number; offset?: number; sort?: string; dir?: string; student?: string; grader?: string; exercise?: string };
const server = vi.hoisted(() => ({ page: vi.fn(), counts: vi.fn(), whole: vi.fn() }));
const http = vi.hoisted(() => ({ get: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
routeHttp(http, [
  [
    'get',
    /^\/answer\/overview\/([^/]+)$/,
    (_ids, options) => {
      const p = (options as { params?: Params } | undefined)?.params;
      if (p?.limit === 0) return server.counts(p);
      if (p?.limit !== undefined) return server.page(p);
      return server.whole();
    },
  ],
]);

const row = (n: number, name: string): OverviewRow => ({
  _id: `a${n}`,
  student: { _id: `u${n}`, firstName: name, lastName: `Nom${n}` },
  grader: null,
  exercise: { _id: 'e1', title: 'Somme', maxPoints: 10 },
  grade: String(n % 11),
  grade_comment: null,
  grade_timestamp: '2026-11-27T09:00:00.000Z',
});

function setup() {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles: { ...NO_ROLES, isMember: true } }}>
      <Routes>
        <Route path="/overview/:id" element={<OverviewPage />} />
      </Routes>
    </SessionContext.Provider>,
    { route: '/overview/c1' },
  );
}

describe('OverviewPage (decision 94: sorted, filtered and paged by the server)', () => {
  beforeEach(() => {
    Object.values(server).forEach((fn) => fn.mockReset());
    server.counts.mockResolvedValue({ rows: [], next: null, double: false, total: 480, matched: 480 } satisfies Page);
    server.page.mockImplementation(async (p: Params) => {
      const offset = p.offset ?? 0;
      const name = p.student ? 'Zoé' : 'Léa';
      return {
        rows: Array.from({ length: 2 }, (_, i) => row(offset + i, name)),
        next: offset === 0 ? 200 : null,
        double: false,
      } satisfies Page;
    });
  });

  it('shows the first page in the server’s order with the counts, and never downloads the whole list', async () => {
    setup();
    expect(await screen.findByText('Léa Nom0')).toBeTruthy();
    expect(await screen.findByText('480/480 corrections')).toBeTruthy();
    expect(server.page).toHaveBeenCalledWith(expect.objectContaining({ limit: 200, offset: 0, sort: 'date', dir: 'desc' }));
    // The end of the rows is in view: the next page comes from `next`.
    expect(await screen.findByText('Léa Nom200')).toBeTruthy();
    expect(server.page).toHaveBeenCalledWith(expect.objectContaining({ offset: 200 }));
    expect(server.whole).not.toHaveBeenCalled();
    // The table announces the whole size, not just the rows loaded.
    expect(screen.getByRole('table', { name: 'Aperçu des corrections' }).getAttribute('aria-rowcount')).toBe('481');
  });

  it('asks the server for another order when a header is clicked, and for a filter once typing pauses', async () => {
    setup();
    await screen.findByText('Léa Nom0');
    const table = screen.getByRole('table', { name: 'Aperçu des corrections' });
    fireEvent.click(within(table).getByRole('button', { name: /Élève/ }));
    await waitFor(() => expect(server.page).toHaveBeenCalledWith(expect.objectContaining({ sort: 'student', dir: 'asc', offset: 0 })));
    expect(within(table).getByRole('columnheader', { name: /Élève/ }).getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(table).getByRole('button', { name: /Élève/ }));
    await waitFor(() => expect(server.page).toHaveBeenCalledWith(expect.objectContaining({ sort: 'student', dir: 'desc' })));

    server.counts.mockResolvedValue({ rows: [], next: null, double: false, total: 480, matched: 3 });
    fireEvent.change(screen.getByRole('textbox', { name: 'Élève' }), { target: { value: 'zo' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Élève' }), { target: { value: 'zoé' } });
    expect(await screen.findByText('Zoé Nom0')).toBeTruthy();
    expect(await screen.findByText('3/480 corrections')).toBeTruthy();
    // Only the value typed last reached the server.
    const asked = server.page.mock.calls.map(([p]) => (p as Params).student).filter(Boolean);
    expect([...new Set(asked)]).toEqual(['zoé']);
  });
});
