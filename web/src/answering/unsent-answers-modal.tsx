import { useEffect, useId, useRef } from 'react';
import { Button, CloseButton, Group, Loader, Stack, Text } from '@mantine/core';
import classes from './unsent-answers-modal.module.css';

export type LogoutStep = 'sending' | 'unsent';

export const UNSENT_ANSWERS_TEXT =
  'Des réponses n’ont pas encore été envoyées : le réseau ou le serveur ne répond pas. La déconnexion se fera dès qu’elles seront envoyées. Si vous vous déconnectez maintenant, elles seront perdues.';

/**
 * Logging out on a shared computer clears what the pupil typed (decisions.md §30): first the unsent
 * answers are sent; when they cannot be, the pupil chooses to wait or to lose them, never silently.
 * A native modal `<dialog>` (decision 96): the page behind is inert, Escape and a click outside close it
 * only once the pupil has a choice to make.
 */
export function UnsentAnswersModal({ step, onStay, onLeave }: { step: LogoutStep | null; onStay: () => void; onLeave: () => void }) {
  if (step === null) return null;
  return <LogoutDialog step={step} onStay={onStay} onLeave={onLeave} />;
}

function LogoutDialog({ step, onStay, onLeave }: { step: LogoutStep; onStay: () => void; onLeave: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closable = step === 'unsent';

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }, []);

  return (
    <dialog
      ref={ref}
      className={classes.dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: the dialog stays while the answers are being sent; afterwards it means « stay ».
        event.preventDefault();
        if (closable) onStay();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (closable && event.target === event.currentTarget) onStay();
      }}
    >
      <div className={classes.header}>
        <h2 id={titleId} className={classes.title}>
          Déconnexion
        </h2>
        {closable && <CloseButton aria-label="Fermer" onClick={onStay} />}
      </div>
      <div className={classes.body}>
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
      </div>
    </dialog>
  );
}
