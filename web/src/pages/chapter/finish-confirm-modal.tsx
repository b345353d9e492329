import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';

export const CONFIRM_FINISH = 'Terminer maintenant';
export const READ_ONLY_WARNING =
  'Vos réponses deviennent alors en lecture seule : vous ne pourrez plus les modifier ensuite, même s’il vous reste du temps.';

interface Props {
  opened: boolean;
  /** The time left, shown so the pupil knows what they give up (« 42 minutes »). */
  formatted: string | null;
  loading: boolean;
  /** Why the last attempt did not finish (answers still unsent), if it did not. */
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asked before a pupil ends their timed test early: it cannot be undone by the pupil. */
export function FinishConfirmModal({ opened, formatted, loading, error, onCancel, onConfirm }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title="Terminer l’épreuve ?" closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <Stack>
        {formatted && <Text>Il vous reste {formatted}.</Text>}
        <Text fw={700}>{READ_ONLY_WARNING}</Text>
        <Text>Un reçu de vos réponses s’affichera sur cette page.</Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Continuer l’épreuve
          </Button>
          <Button color="red.9" onClick={onConfirm} loading={loading}>
            {CONFIRM_FINISH}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
