import type { ReactNode } from 'react';
import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { frenchNumber } from '@olympe/contract/typography';

interface Props {
  opened: boolean;
  title: string;
  /** What will happen, with its counts; null while the counts load. */
  message: ReactNode | null;
  confirmLabel: string;
  /** Red confirmation for what cannot be undone. */
  danger?: boolean;
  loading?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * Asked before what a misclick must not do (decision 69): publishing, unpublishing, automatic
 * correction, deletions. Says what will happen, with counts, and waits for them before it can be confirmed.
 */
export function ConfirmDialog({ opened, title, message, confirmLabel, danger, loading, onCancel, onConfirm }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <Stack>
        {message === null ? (
          <Loader size="sm" aria-label="Calcul en cours" />
        ) : typeof message === 'string' ? (
          <Text>{message}</Text>
        ) : (
          message
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Annuler
          </Button>
          <Button color={danger ? 'red.9' : undefined} onClick={onConfirm} loading={loading} disabled={message === null}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** « 1 234 copies » : a count in French (narrow no-break space between thousands) with its noun, singular or plural. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${frenchNumber(n)}\u00a0${n > 1 ? plural : singular}`;
}
