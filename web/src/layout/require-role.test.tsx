import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LOGGED_OUT, SessionContext, type Session } from '../session/session-context';
import { NO_ROLES, type Roles } from '../session/roles';
import { renderWithProviders } from '../test/render';
import { FORBIDDEN_PAGE_TEXT, RequireRole } from './require-role';

function renderAs(session: Partial<Session>, role: 'admin' | 'member' | 'teacher') {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, ...session }}>
      <RequireRole role={role}>
        <h1>Écran de gestion</h1>
      </RequireRole>
    </SessionContext.Provider>,
    { route: '/chapters', targets: { '/login': 'Page de connexion' } },
  );
}
const roles = (r: Partial<Roles>): Roles => ({ ...NO_ROLES, profileComplete: true, ...r });

describe('RequireRole', () => {
  it('sends a visitor who is not logged in to the login page', () => {
    renderAs({}, 'admin');
    expect(screen.getByText('Page de connexion')).toBeTruthy();
    expect(screen.queryByText('Écran de gestion')).toBeNull();
  });

  it('waits for the session before deciding', () => {
    renderAs({ token: 't', loading: true }, 'admin');
    expect(screen.getByRole('status', { name: 'Chargement' })).toBeTruthy();
    expect(screen.queryByText('Écran de gestion')).toBeNull();
  });

  it.each([
    ['a pupil', roles({}), 'admin'],
    ['a teacher', roles({ isTeacher: true }), 'member'],
    ['a corrector', roles({ isMember: true }), 'admin'],
    ['a pupil', roles({}), 'teacher'],
    ['a corrector', roles({ isMember: true }), 'teacher'],
  ] as const)('shows %s one sentence instead of the screen', (_, r, role) => {
    renderAs({ token: 't', roles: r }, role);
    expect(screen.getByText(FORBIDDEN_PAGE_TEXT)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Accès refusé', level: 1 })).toBeTruthy();
    expect(screen.queryByText('Écran de gestion')).toBeNull();
  });

  it.each([
    ['an admin', roles({ isAdmin: true }), 'admin'],
    ['an admin', roles({ isAdmin: true }), 'member'],
    ['a corrector', roles({ isMember: true }), 'member'],
    ['a teacher', roles({ isTeacher: true }), 'teacher'],
    ['an admin', roles({ isAdmin: true }), 'teacher'],
  ] as const)('shows %s the screen', (_, r, role) => {
    renderAs({ token: 't', roles: r }, role);
    expect(screen.getByText('Écran de gestion')).toBeTruthy();
  });
});
