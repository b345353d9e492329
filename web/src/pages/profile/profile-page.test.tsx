import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GroupSummary, User } from '@olympe/contract';
import { computeRoles } from '../../session/roles';
import { LOGGED_OUT, SessionContext } from '../../session/session-context';
import { makeUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { ProfilePage } from './profile-page';

function renderProfile(user: User, groups: GroupSummary[] = []) {
  renderWithProviders(
    <SessionContext.Provider value={{ ...LOGGED_OUT, token: 't', user, groups, roles: computeRoles(user, groups) }}>
      <ProfilePage />
    </SessionContext.Provider>,
  );
}

describe('ProfilePage', () => {
  it.each([
    ['Administrateur', { isAdmin: true, isMember: true }, []],
    ['Correcteur', {}, [{ _id: 'g', name: 'members' }]],
    ['Personnel scolaire', { isTeacher: true }, []],
  ] as const)('shows the tag "%s"', (tag, flags, groups) => {
    renderProfile(makeUser(flags), [...groups]);
    expect(screen.getByRole('heading', { name: 'Mon profil' })).toBeTruthy();
    expect(screen.getByText(tag)).toBeTruthy();
  });

  it('gives pupils no tag and shows the main e-mail read-only', () => {
    renderProfile(makeUser());
    for (const tag of ['Administrateur', 'Correcteur', 'Personnel scolaire']) expect(screen.queryByText(tag)).toBeNull();
    const email = screen.getByLabelText('E-mail principal') as HTMLInputElement;
    expect(email.value).toBe('eleve@example.fr');
    expect(email.readOnly).toBe(true);
    expect(screen.getByText(/uniquement à l'envoi des e-mails de réinitialisation/)).toBeTruthy();
  });

  it('sends logged-out visitors to /login', () => {
    renderWithProviders(<ProfilePage />, { targets: { '/login': 'Page de connexion' } });
    expect(screen.getByText('Page de connexion')).toBeTruthy();
  });
});
