import type { ReactNode } from 'react';
import { Alert, Center, Loader, Stack, Title } from '@mantine/core';
import { LoginRedirect } from '../components/login-gate';
import { useSession } from '../session/session-context';

export const FORBIDDEN_PAGE_TEXT = 'Vous n’avez pas accès à cette ressource.';

/**
 * The management screens, as the API guards them: `admin` for administrators, `member` for correctors
 * and administrators, `teacher` for school staff and administrators (a centre's day). A visitor who is not logged in goes to the login page; a logged-in user without
 * the role sees one sentence instead of a screen of controls whose every call would be refused.
 */
export function RequireRole({ role, children }: { role: 'admin' | 'member' | 'teacher'; children: ReactNode }) {
  const { token, loading, roles } = useSession();
  if (!token) return <LoginRedirect />;
  if (loading) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement" />
      </Center>
    );
  }
  if (roles.isAdmin || (role === 'member' && roles.isMember) || (role === 'teacher' && roles.isTeacher)) return children;
  return (
    <Stack>
      <Title order={1}>Accès refusé</Title>
      <Alert color="red">{FORBIDDEN_PAGE_TEXT}</Alert>
    </Stack>
  );
}
