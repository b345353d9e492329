import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { DECISION_REASON_MAX } from '@olympe/contract';
import { refusalOf } from '../../api/client';
import { useFreezeSelection } from '../../api/selections';

/**
 * « Geler la liste » (decision 157): a new numbered version of every category's list; from the second on, the
 * jury says why. The server's refusal (a tie unresolved, a cut-off missing) is shown in the dialog.
 */
export function FreezeDialog({ selectionId, versions, onClose }: { selectionId: string; versions: number; onClose: () => void }) {
  const freeze = useFreezeSelection(selectionId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reasonRequired = versions > 0;
  const send = () => {
    if (reasonRequired && reason.trim() === '')
      return setError('Indiquez pourquoi la liste change : c’est obligatoire à partir de la version 2.');
    freeze.mutate(reason.trim(), { onSuccess: onClose });
  };
  const refusal = freeze.isError ? (refusalOf(freeze.error)?.message ?? 'Le serveur ne répond pas : la liste n’est pas gelée.') : null;
  return (
    <Modal opened onClose={onClose} title={`Geler la liste (version ${versions + 1})`} closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <Stack>
          <Text>
            La version {versions + 1} enregistre les seuils, les quotas, les décisions et le statut de chaque participant ; elle ne change
            plus ensuite.
          </Text>
          <Textarea
            label="Motif"
            description={
              reasonRequired ? 'Obligatoire : ce qui change depuis la version précédente.' : 'Facultatif pour la première version.'
            }
            required={reasonRequired}
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
          {refusal && (
            <Alert color="red" role="alert">
              {refusal}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Annuler
            </Button>
            <Button type="submit" loading={freeze.isPending}>
              Geler la liste
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
