import { useMemo, useState } from 'react';
import { Alert, Button, Group, Text, Textarea } from '@mantine/core';
import { isApiError } from '../../api/client';
import { useSaveGroupMembers } from '../../api/groups';
import { addEmails, diffEmails, removeEmails } from './members';

/** The unknown e-mails a refused save names (`{ unknown }` beside `{ message, code }`). */
function unknownEmailsOf(error: unknown): string[] {
  const data = isApiError(error) ? (error.response?.data as { unknown?: string[] } | undefined) : undefined;
  return data?.unknown ?? [];
}

/**
 * docs/product.md#spec-2 "Group members": the e-mail list. « Ajouter » and « Retirer » prepare the list,
 * « Enregistrer » sends it whole; the addresses no account has come back into the field.
 */
export function MemberEmailList({ groupId, savedEmails }: { groupId: string; savedEmails: string[] }) {
  const [pending, setPending] = useState<string[] | null>(null);
  const [emailInput, setEmailInput] = useState('');
  const [unknown, setUnknown] = useState<string[]>([]);
  const saveMembers = useSaveGroupMembers(groupId);
  const list = pending ?? savedEmails;
  const changes = useMemo(() => diffEmails(savedEmails, list), [savedEmails, list]);
  const dirty = changes.added.length + changes.removed.length > 0;

  function save() {
    saveMembers.mutate(list, {
      onSuccess: () => {
        setPending(null);
        setUnknown([]);
      },
      onError: (error) => {
        // Unknown e-mails come back by name: they go into the input, ready for "Retirer".
        const named = unknownEmailsOf(error);
        if (named.length) {
          setUnknown(named);
          setEmailInput(named.join('\n'));
        }
        console.error(error);
      },
    });
  }
  function add() {
    setPending(addEmails(list, emailInput));
    setEmailInput('');
  }
  function remove() {
    const next = removeEmails(list, emailInput);
    setPending(next);
    setUnknown((u) => u.filter((e) => next.includes(e)));
    setEmailInput('');
  }
  function cancel() {
    setPending(null);
    setUnknown([]);
  }

  return (
    <>
      <Textarea
        label="Liste d’adresses e-mail"
        description="Séparées par des espaces, des virgules ou des points-virgules. « Ajouter » et « Retirer » préparent la liste ; « Enregistrer » l’applique au groupe."
        rows={3}
        resize="vertical"
        value={emailInput}
        onChange={(e) => setEmailInput(e.currentTarget.value)}
      />
      <Group>
        <Button variant="default" onClick={add} disabled={!emailInput.trim()}>
          Ajouter
        </Button>
        <Button variant="default" onClick={remove} disabled={!emailInput.trim()}>
          Retirer
        </Button>
        <Button onClick={save} loading={saveMembers.isPending} disabled={!dirty}>
          Enregistrer
        </Button>
        {dirty && (
          <Button variant="subtle" onClick={cancel}>
            Annuler les changements
          </Button>
        )}
      </Group>
      {dirty && <PendingChanges added={changes.added} removed={changes.removed} />}
      {unknown.length > 0 && (
        <Alert color="red" title="Adresses inconnues">
          <Text size="sm">
            Ces adresses ne correspondent à aucun compte ; elles ont été placées dans la liste ci-dessus, cliquez sur « Retirer » puis
            « Enregistrer » : {unknown.join(', ')}
          </Text>
        </Alert>
      )}
    </>
  );
}

function PendingChanges({ added, removed }: { added: string[]; removed: string[] }) {
  return (
    <Alert color="blue" title="Changements non enregistrés">
      <Text size="sm">
        À ajouter ({added.length}) : {added.slice(0, 50).join(', ') || '—'}
        {added.length > 50 ? '…' : ''}
      </Text>
      <Text size="sm">
        À retirer ({removed.length}) : {removed.slice(0, 50).join(', ') || '—'}
        {removed.length > 50 ? '…' : ''}
      </Text>
    </Alert>
  );
}
