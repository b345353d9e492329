import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LOGGED_OUT, SessionContext } from '../session/session-context';
import { clearToken } from '../session/token';
import { makeUser } from '../test/fixtures';
import { renderWithProviders } from '../test/render';
import { ImpersonationBanner } from './ImpersonationBanner';

vi.mock('../api/users', () => ({ logto: vi.fn() }));
const auth = vi.hoisted(() => ({ endServerSession: vi.fn() }));
vi.mock('../api/auth', () => ({ endServerSession: auth.endServerSession }));

function setup(login = vi.fn().mockResolvedValue(undefined)) {
  renderWithProviders(
    <SessionContext.Provider
      value={{ ...LOGGED_OUT, token: 'pupil-token', user: makeUser({ firstName: 'Chloé', lastName: 'Lefèvre' }), login }}
    >
      <ImpersonationBanner />
    </SessionContext.Provider>,
    { targets: { '/groups': 'Page groupes' } },
  );
  return login;
}

describe('ImpersonationBanner', () => {
  it('is absent outside a simulation', () => {
    setup();
    expect(screen.queryByRole('button', { name: 'Revenir à mon compte' })).toBeNull();
  });

  it('names the simulated user and comes back to the admin token without a new login', async () => {
    localStorage.setItem('jwt', 'pupil-token');
    localStorage.setItem('jwt_admin', 'admin-token');
    localStorage.setItem('jwt_admin_refresh', 'admin-refresh');
    auth.endServerSession.mockResolvedValue(undefined);
    const login = setup();
    expect(screen.getByText(/Chloé Lefèvre/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Revenir à mon compte' }));
    expect(await screen.findByText('Page groupes')).toBeTruthy();
    // The simulation's session ends on the server (decision 136); the admin's comes back with its refresh token.
    expect(auth.endServerSession).toHaveBeenCalledOnce();
    expect(login).toHaveBeenCalledWith('admin-token', 'admin-refresh');
    await waitFor(() => expect(localStorage.getItem('jwt_admin')).toBeNull());
  });

  it('logging out forgets the kept admin token too', () => {
    localStorage.setItem('jwt', 'pupil-token');
    localStorage.setItem('jwt_admin', 'admin-token');
    localStorage.setItem('jwt_admin_refresh', 'admin-refresh');
    clearToken();
    expect(localStorage.getItem('jwt_admin')).toBeNull();
    expect(localStorage.getItem('jwt_admin_refresh')).toBeNull();
  });
});
