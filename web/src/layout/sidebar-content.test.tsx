import { cleanup, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { GroupSummary, User } from '@olympe/contract';
import { computeRoles } from '../session/roles';
import { renderWithProviders } from '../test/render';
import { CHAPTERS, makeUser } from '../test/fixtures';
import { SidebarContent } from './sidebar-content';

function renderSidebar(user: User | null, groups: GroupSummary[] = [], onLogout = vi.fn()) {
  renderWithProviders(
    <SidebarContent user={user} roles={computeRoles(user, groups)} chapters={CHAPTERS} pathname="/" onLogout={onLogout} />,
  );
  return { onLogout };
}

const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

describe('SidebarContent', () => {
  it('offers login and signup when logged out, and no admin or test sections', () => {
    renderSidebar(null);
    expect(hrefOf('Se connecter')).toBe('/login');
    expect(hrefOf('S’inscrire')).toBe('/signup');
    expect(hrefOf('Accueil')).toBe('/');
    expect(screen.queryByText('Mon profil')).toBeNull();
    expect(screen.queryByText('Administration')).toBeNull();
    expect(screen.queryByText('Tests en ligne')).toBeNull();
  });

  it('while a kept token reconnects (network cut), offers no login links but says it is connecting', () => {
    renderWithProviders(
      <SidebarContent user={null} roles={computeRoles(null, [])} chapters={CHAPTERS} pathname="/" onLogout={vi.fn()} connecting />,
    );
    expect(screen.getByRole('status').textContent).toBe('Connexion au serveur…');
    expect(screen.queryByText('Se connecter')).toBeNull();
    expect(screen.queryByText('S’inscrire')).toBeNull();
  });

  it('offers profile and logout when logged in', () => {
    const { onLogout } = renderSidebar(makeUser());
    expect(hrefOf('Mon profil')).toBe('/profile');
    expect(screen.queryByText('Se connecter')).toBeNull();
    screen.getByRole('button', { name: 'Se déconnecter' }).click();
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it('shows the administration links to admins only', () => {
    renderSidebar(makeUser({ isAdmin: true }));
    const admin = screen.getByRole('region', { name: 'Administration' });
    expect(within(admin).getByRole('link', { name: 'Groupes' }).getAttribute('href')).toBe('/groups');
    expect(within(admin).getByRole('link', { name: 'Chapitres' }).getAttribute('href')).toBe('/chapters');
    expect(within(admin).getByRole('link', { name: 'Établissements' }).getAttribute('href')).toBe('/map');
  });

  it('hides the administration links from non-admins', () => {
    renderSidebar(makeUser(), [{ _id: 'g', name: 'members' }]);
    expect(screen.queryByText('Administration')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Groupes' })).toBeNull();
  });

  it('splits chapters into online and paper lists linking to /chapter/{id}', () => {
    renderSidebar(makeUser());
    const online = screen.getByRole('region', { name: 'Tests en ligne' });
    const paper = screen.getByRole('region', { name: 'Tests papiers' });
    expect(within(online).getByRole('link', { name: 'Test en ligne 1' }).getAttribute('href')).toBe('/chapter/c-online');
    expect(within(online).queryByText('Épreuve papier 1')).toBeNull();
    expect(within(paper).getByRole('link', { name: 'Épreuve papier 1' }).getAttribute('href')).toBe('/chapter/c-paper');
  });

  it('hides paper tests from a teacher whose school has no name', () => {
    const teacher = computeRoles(makeUser({ isTeacher: true }), []);
    renderWithProviders(
      <SidebarContent
        user={makeUser({ isTeacher: true, institution: { _id: 'i', name: '' } })}
        roles={{ ...teacher, profileComplete: true }}
        chapters={CHAPTERS}
        pathname="/"
        onLogout={() => {}}
      />,
    );
    expect(screen.getByText('Tests en ligne')).toBeTruthy();
    expect(screen.queryByText('Tests papiers')).toBeNull();
  });

  it('shows paper tests to a teacher with a school', () => {
    renderSidebar(makeUser({ isTeacher: true }));
    expect(screen.getByText('Tests papiers')).toBeTruthy();
  });

  it('gives school staff, not pupils, the qualified pupils of published selections (docs/product.md#selections)', () => {
    renderSidebar(makeUser({ isTeacher: true }));
    expect(hrefOf('Qualifiés des sélections')).toBe('/selections/school');
    cleanup();
    renderSidebar(makeUser());
    expect(screen.queryByRole('link', { name: 'Qualifiés des sélections' })).toBeNull();
  });

  it('gives members a "Corriger" link to /grader/{id} beside each chapter, titled « Corriger » (docs/product.md#spec-2) and named after it', () => {
    renderSidebar(makeUser(), [{ _id: 'g', name: 'members' }]);
    const links = screen.getAllByRole('link', { name: /^Corriger «/ });
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/grader/c-online', '/grader/c-paper']);
    expect(links[0].getAttribute('title')).toBe('Corriger');
    expect(links[0].getAttribute('aria-label')).toBe('Corriger « Test en ligne 1 »');
  });

  it('gives members and admins a visible « Corriger » entry of the menu, to the « À corriger » list (decision 141)', () => {
    renderSidebar(makeUser(), [{ _id: 'g', name: 'members' }]);
    const section = screen.getByRole('region', { name: 'Correction' });
    const entry = within(section).getByRole('link', { name: 'Corriger' });
    expect(entry.getAttribute('href')).toBe('/a-corriger');
    expect(entry.textContent).toBe('Corriger');
  });

  it('gives members and admins the « Sélections » of the juries, and pupils none (docs/product.md#selections)', () => {
    renderSidebar(makeUser(), [{ _id: 'g', name: 'members' }]);
    const section = screen.getByRole('region', { name: 'Correction' });
    expect(within(section).getByRole('link', { name: 'Sélections' }).getAttribute('href')).toBe('/selections');
  });

  it('gives pupils no « Sélections » link', () => {
    renderSidebar(makeUser());
    expect(screen.queryByRole('link', { name: 'Sélections' })).toBeNull();
  });

  it('gives no "Corriger" link to pupils', () => {
    renderSidebar(makeUser());
    expect(screen.queryByRole('link', { name: /Corriger/ })).toBeNull();
  });

  it('replaces both test lists by a prompt when the profile is incomplete', () => {
    renderSidebar(makeUser({ emailParent: null }));
    expect(screen.getByText('Complétez votre profil pour accéder aux contenus.')).toBeTruthy();
    expect(screen.queryByText('Tests en ligne')).toBeNull();
    expect(screen.queryByText('Tests papiers')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Test en ligne 1' })).toBeNull();
  });
});
