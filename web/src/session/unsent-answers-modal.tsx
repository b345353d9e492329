import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';

export type LogoutStep = 'sending' | 'unsent';

export const UNSENT_ANSWERS_TEXT =
  'Des réponses n’ont pas encore été envoyées : le réseau ou le serveur ne répond pas. La déconnexion se fera dès qu’elles seront envoyées. Si vous vous déconnectez maintenant, elles seront perdues.';

/**
 * Logging out on a shared computer clears what the pupil typed (decisions.md §30): first the unsent
 * answers are sent; when they cannot be, the pupil chooses to wait or to lose them, never silently.
 */
export function UnsentAnswersModal({ step, onStay, onLeave }: { step: LogoutStep | null; onStay: () => void; onLeave: () => void }) {
  return (
    <Modal
      opened={step !== null}
      onClose={onStay}
      title="Déconnexion"
      centered
      withCloseButton={step === 'unsent'}
      closeButtonProps={{ 'aria-label': 'Fermer' }}
      closeOnClickOutside={step === 'unsent'}
      closeOnEscape={step === 'unsent'}
    >
      {step === 'sending' ? (
        <Group gap="sm">
          <Loader size="sm" aria-hidden="true" />
          <Text role="status">Envoi de vos réponses avant la déconnexion…</Text>
        </Group>
      ) : (
        <Stack>
          <Text role="alert">{UNSENT_ANSWERS_TEXT}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onStay}>
              Rester connecté
            </Button>
            <Button color="red" onClick={onLeave}>
              Se déconnecter sans les envoyer
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
