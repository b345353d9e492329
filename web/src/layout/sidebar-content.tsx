import { NavLink, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ChapterSummary, User } from '@olympe/contract';
import { paths } from '../config/paths';
import { canSeePaperTests, type Roles } from '../session/roles';
import { ChapterLinks } from './chapter-links';
import { NavSection } from './nav-section';

export const INCOMPLETE_PROFILE_TEXT = 'Complétez votre profil pour accéder aux contenus.';

export interface SidebarContentProps {
  user: User | null;
  roles: Roles;
  chapters: readonly ChapterSummary[];
  pathname: string;
  onLogout: () => void;
  /** A token is kept but the session has not loaded yet (a network cut): no login links then. */
  connecting?: boolean;
}

export const CONNECTING_TEXT = 'Connexion au serveur…';

/** The sidebar of docs/product.md#spec-2 "Sidebar layout", driven only by its props so every rule is testable. */
export function SidebarContent({ user, roles, chapters, pathname, onLogout, connecting = false }: SidebarContentProps) {
  const link = (to: string, label: string) => <NavLink component={Link} to={to} label={label} active={pathname === to} />;
  const online = chapters.filter((c) => !c.offline);
  const paper = chapters.filter((c) => c.offline);

  return (
    <>
      <NavSection title="Mon compte">
        {user ? (
          <>
            {link(paths.profile, 'Mon profil')}
            <NavLink component="button" type="button" label="Se déconnecter" onClick={onLogout} />
          </>
        ) : connecting ? (
          <Text size="sm" px="sm" py={6} role="status">
            {CONNECTING_TEXT}
          </Text>
        ) : (
          <>
            {link(paths.login, 'Se connecter')}
            {link(paths.signup, 'S’inscrire')}
          </>
        )}
      </NavSection>

      {(roles.isAdmin || roles.isTeacher) && (
        <NavSection title="Mon établissement">
          {link(paths.usersImport, 'Inscrire des élèves')}
          {/* docs/product.md#selections: the school's qualified pupils once a selection is published. */}
          {link(paths.schoolSelections, 'Qualifiés des sélections')}
        </NavSection>
      )}

      <NavSection title="Pages utiles">
        {link(paths.home, 'Accueil')}
        {link(paths.privacy, 'Données personnelles')}
      </NavSection>

      {(roles.isAdmin || roles.isMember) && (
        <NavSection title="Correction">
          {/* Decision 141: a visible way in, beside the small icon of each chapter. */}
          {link(paths.toGrade, 'Corriger')}
          {link(paths.regradeChooser, 'Réexamens')}
          {link(paths.statsChooser, 'Statistiques')}
          {/* The juries of docs/product.md#selections are mostly correctors; a jury member who is not one follows a link. */}
          {link(paths.selections, 'Sélections')}
        </NavSection>
      )}

      {roles.isAdmin && (
        <NavSection title="Administration">
          {link(paths.groups, 'Groupes')}
          {link(paths.chapters, 'Chapitres')}
          {link(paths.map, 'Établissements')}
          {link(paths.bin, 'Corbeille')}
        </NavSection>
      )}

      {/* Logged-out visitors have no chapters to list (decision: the test sections are hidden). */}
      {user &&
        (roles.profileComplete ? (
          <>
            <NavSection title="Tests en ligne">
              <ChapterLinks chapters={online} showGrader={roles.isMember} pathname={pathname} />
            </NavSection>
            {canSeePaperTests(user, roles) && (
              <NavSection title="Tests papiers">
                <ChapterLinks chapters={paper} showGrader={roles.isMember} pathname={pathname} />
              </NavSection>
            )}
          </>
        ) : (
          <Text size="sm" px="sm" c="gray.8">
            {INCOMPLETE_PROFILE_TEXT}
          </Text>
        ))}
    </>
  );
}
