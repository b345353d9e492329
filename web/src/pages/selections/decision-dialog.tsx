import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { DECISION_REASON_MAX, type DecisionKind } from '@olympe/contract';
import { useSaveDecision } from '../../api/selections';

export interface DecisionTarget {
  key: string;
  label: string;
  /** What the jury does: include, exclude, or undo its former decision (null). */
  decision: DecisionKind | null;
}

const TITLES: Record<DecisionKind | 'undo', string> = {
  include: 'Inclure',
  exclude: 'Exclure',
  undo: 'Annuler la décision sur',
};

/** The jury includes or excludes one pupil of a category, with a reason it must give (decision 156, audited). */
export function DecisionDialog({
  selectionId,
  categoryId,
  target,
  onClose,
}: {
  selectionId: string;
  categoryId: string;
  target: DecisionTarget;
  onClose: () => void;
}) {
  const save = useSaveDecision(selectionId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const verb = TITLES[target.decision ?? 'undo'];
  const send = () => {
    const text = reason.trim();
    if (target.decision !== null && text === '') return setError('Indiquez le motif de la décision.');
    save.mutate({ categoryId, key: target.key, decision: target.decision, reason: text }, { onSuccess: onClose });
  };
  return (
    <Modal opened onClose={onClose} title={`${verb} ${target.label}`} closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <Stack>
          {target.decision === null ? (
            <Text>Le statut de cet élève suivra de nouveau le seuil et les quotas.</Text>
          ) : (
            <Textarea
              label="Motif"
              description="Il est enregistré avec la décision et figure dans l’export."
              required
              autosize
              minRows={2}
              maxLength={DECISION_REASON_MAX}
              value={reason}
              error={error}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setError(null);
              }}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Annuler
            </Button>
            <Button type="submit" loading={save.isPending} color={target.decision === 'exclude' ? 'red.9' : undefined}>
              {target.decision === null ? 'Annuler la décision' : target.decision === 'include' ? 'Inclure' : 'Exclure'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
