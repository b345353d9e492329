import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SelectionSummary } from '@olympe/contract';
import { ApiError } from '../../api/client';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { NO_ROLES, type Roles } from '../../session/roles';
import { routeHttp } from '../../test/http-routes';
import { renderWithProviders } from '../../test/render';
import { SelectionsPage } from './selections-page';

const server = vi.hoisted(() => ({ list: vi.fn() }));
const http = vi.hoisted(() => ({ get: vi.fn() }));
vi.mock('../../api/client', async (importOriginal) => ({ ...(await importOriginal<object>()), api: http }));
routeHttp(http, [['get', /^\/selection$/, () => server.list()]]);

const SUMMARY: SelectionSummary = { _id: 's1', title: 'Sélection 2026', published: true, publishAt: null, right: 'admin', versions: 2 };

function setup(roles: Roles) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', roles }}>
      <SelectionsPage />
    </SessionContext.Provider>,
  );
}

describe('SelectionsPage (docs/product.md#selections)', { timeout: 20_000 }, () => {
  beforeEach(() => {
    server.list.mockReset();
  });

  it('lists the selections with their publication and versions, and offers an admin a new one', async () => {
    server.list.mockResolvedValue([SUMMARY]);
    setup({ ...NO_ROLES, isAdmin: true });
    expect((await screen.findByRole('link', { name: 'Sélection 2026' })).getAttribute('href')).toBe('/selections/s1');
    expect(screen.getByText('Publiée')).toBeTruthy();
    expect(screen.getByRole('cell', { name: '2' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Nouvelle sélection' }).getAttribute('href')).toBe('/selections/new');
  });

  it('says the server’s refusal to who is on no jury, with no button', async () => {
    server.list.mockRejectedValue(
      new ApiError('http', { status: 403, data: { message: 'Vous ne faites pas partie du jury de cette sélection.', code: 'forbidden' } }),
    );
    setup({ ...NO_ROLES, isMember: true });
    expect(await screen.findByText('Vous ne faites pas partie du jury de cette sélection.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Nouvelle sélection' })).toBeNull();
  });
});
