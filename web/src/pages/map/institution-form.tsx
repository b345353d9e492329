import { useState } from 'react';
import { Button, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useDeleteInstitution } from '../../api/institutions';
import { ConfirmDialog } from '../../components/confirm-dialog';
import type { InstitutionEditor } from './use-institution-editor';

/** The selected school's name, address and e-mail, saved; admins also verify it and delete it after a confirmation. */
export function InstitutionForm({ editor, isAdmin }: { editor: InstitutionEditor; isAdmin: boolean }) {
  const { draft, setDraft, save } = editor;
  const [confirmDelete, setConfirmDelete] = useState(false);
  const remove = useDeleteInstitution({ onDeleted: editor.cancel, onSettled: () => setConfirmDelete(false) });
  if (!draft) return null;
  const id = draft._id;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        editor.submit();
      }}
      aria-label="Établissement sélectionné"
    >
      <Stack>
        <TextInput label="Nom" required value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
        <TextInput label="Adresse postale" value={draft.address} onChange={(e) => setDraft({ ...draft, address: e.currentTarget.value })} />
        <TextInput label="E-mail" type="email" value={draft.email} onChange={(e) => setDraft({ ...draft, email: e.currentTarget.value })} />
        {isAdmin && id && (
          <NativeSelect
            label="Vérifié"
            data={[
              { value: 'true', label: 'Oui' },
              { value: 'false', label: 'Non' },
            ]}
            value={String(draft.confirmed)}
            onChange={(e) => setDraft({ ...draft, confirmed: e.currentTarget.value === 'true' })}
          />
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Enregistrer
          </Button>
          <Button variant="default" onClick={editor.cancel}>
            Annuler
          </Button>
          {isAdmin && id && (
            <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
              Supprimer
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirmDelete && id !== null}
        title="Supprimer l’établissement"
        message={`Supprimer l’établissement « ${draft.name} » ?`}
        confirmLabel="Confirmer la suppression"
        danger
        loading={remove.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => id && remove.mutate(id)}
      />
    </form>
  );
}
