import { Alert, Button, Group, Text } from '@mantine/core';
import { useImpersonation } from '../hooks/use-impersonation';
import { useSession } from '../session/session-context';

/** Shown on every page while an admin acts as another user ("Simuler"). */
export function ImpersonationBanner() {
  const { user } = useSession();
  const { impersonating, stop, stopping } = useImpersonation();
  if (!impersonating) return null;
  const who = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email : '…';
  return (
    <Alert
      color="yellow"
      mb="md"
      role="status"
      title="Simulation en cours"
      // The default yellow title is 2.7:1 on its background: a dark title keeps WCAG AA.
      styles={{ title: { color: 'var(--mantine-color-dark-9)' } }}
    >
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm">
          Vous utilisez l’application en tant que <strong>{who}</strong>
          {user && who !== user.email ? ` (${user.email})` : ''}.
        </Text>
        <Button size="xs" variant="filled" color="dark" loading={stopping} onClick={() => stop()}>
          Revenir à mon compte
        </Button>
      </Group>
    </Alert>
  );
}
