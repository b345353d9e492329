import { Badge, Center, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { Navigate } from 'react-router';
import { paths } from '../../config/paths';
import type { Roles } from '../../session/roles';
import { useSession } from '../../session/session-context';

/** SPEC §2 "Profile": the title's tag by role; pupils have none. */
export function roleTag(roles: Roles): string | null {
  if (roles.isAdmin) return 'Administrateur';
  if (roles.isMember) return 'Correcteur';
  if (roles.isTeacher) return 'Personnel scolaire';
  return null;
}

/** First part of the profile screen; the full form and the school map come later. */
export function ProfilePage() {
  const { token, user, roles, loading } = useSession();
  if (!token) return <Navigate to={paths.login} replace />;
  if (loading || !user) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement" />
      </Center>
    );
  }
  const tag = roleTag(roles);
  return (
    <Stack maw={560}>
      <Group gap="sm" align="center">
        <Title order={1}>Mon profil</Title>
        {tag && (
          <Badge size="lg" variant="filled">
            {tag}
          </Badge>
        )}
      </Group>
      <TextInput
        label="E-mail principal"
        value={user.email}
        readOnly
        description="Cette adresse sert uniquement à l'envoi des e-mails de réinitialisation du mot de passe."
      />
      <Text size="sm">Le formulaire complet du profil arrive bientôt.</Text>
    </Stack>
  );
}
