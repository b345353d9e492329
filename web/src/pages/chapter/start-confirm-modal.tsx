import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { SessionStateView } from '@olympe/contract';
import { formatDuration, parisMoment, startPlan } from './chapter-view';

export const CONFIRM_START = 'Commencer maintenant';
export const NO_PAUSE =
  'Le chronomètre ne peut pas être mis en pause : une fois l’épreuve commencée, le temps s’écoule même si vous fermez la page ou perdez la connexion.';

interface Props {
  opened: boolean;
  state: SessionStateView;
  /** When the state arrived (browser clock): only the time elapsed since is taken from the browser. */
  receivedAt: number;
  /** « Temps supplémentaire : 33 % (inclus dans la durée affichée) », when the pupil has some. */
  extraTime?: string | null;
  loading: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * Asked before a timed test starts, since starting cannot be undone: how long it lasts, when it
 * will end in Paris time (the window end when it comes first, as the server decides), no pause.
 */
export function StartConfirmModal({ opened, state, receivedAt, extraTime, loading, onCancel, onConfirm }: Props) {
  // docs/product.md#spec-4: the server is the clock (a pupil's computer may be minutes off).
  const now = Date.parse(state.serverTime) + Math.max(0, Date.now() - (receivedAt || Date.now()));
  const plan = state.duration !== null ? startPlan(state.duration, state.accessEnd, now) : null;
  return (
    <Modal opened={opened} onClose={onCancel} title="Commencer l’épreuve ?" closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <Stack>
        {plan && state.duration !== null && (
          <Text>
            {plan.capped
              ? `L’épreuve dure ${formatDuration(state.duration)}, mais elle ferme ${parisMoment(plan.end, new Date(now))} (heure de Paris) : vous aurez ${formatDuration(plan.seconds)}.`
              : `Vous aurez ${formatDuration(state.duration)} : l’épreuve se terminera ${parisMoment(plan.end, new Date(now))} (heure de Paris).`}
          </Text>
        )}
        {extraTime && <Text>{extraTime}</Text>}
        <Text fw={700}>{NO_PAUSE}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Annuler
          </Button>
          <Button onClick={onConfirm} loading={loading}>
            {CONFIRM_START}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
