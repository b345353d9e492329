import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import type { Selection } from '@olympe/contract';
import { downloadFiguresXlsx, downloadSelectionXlsx, useRevealNames } from '../../api/selections';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DownloadButton } from '../../components/download-button';
import { paths } from '../../config/paths';
import { FreezeDialog } from './freeze-dialog';
import { SelectionPublicationDialog } from './publication-dialog';

type Open = 'freeze' | 'reveal' | 'publication' | null;

/**
 * What is done on the whole selection: freezing (a jury that decides, admins), lifting the anonymity, publishing
 * and editing (admins), the two spreadsheets (the whole jury). A read-only jury gets no control that writes.
 */
export function BoardActions({ selection }: { selection: Selection }) {
  const [open, setOpen] = useState<Open>(null);
  const reveal = useRevealNames(selection._id);
  const admin = selection.right === 'admin';
  const close = () => setOpen(null);
  return (
    <>
      <Group wrap="wrap" align="flex-start">
        {selection.right !== 'read' && <Button onClick={() => setOpen('freeze')}>Geler la liste</Button>}
        {admin && !selection.namesShown && (
          <Button variant="default" onClick={() => setOpen('reveal')}>
            Lever l’anonymat
          </Button>
        )}
        {admin && (
          <Button variant="light" onClick={() => setOpen('publication')}>
            Publication
          </Button>
        )}
        {admin && (
          <Button variant="default" component={Link} to={paths.selectionEdit(selection._id)}>
            Modifier la sélection
          </Button>
        )}
        <DownloadButton label="Télécharger la liste (XLSX)" run={() => downloadSelectionXlsx(selection._id, selection.title)} />
        <DownloadButton label="Télécharger les chiffres (XLSX)" run={() => downloadFiguresXlsx(selection._id, selection.title)} />
      </Group>
      {open === 'freeze' && <FreezeDialog selectionId={selection._id} versions={selection.versions.length} onClose={close} />}
      {open === 'publication' && <SelectionPublicationDialog selection={selection} onClose={close} />}
      <ConfirmDialog
        opened={open === 'reveal'}
        title="Lever l’anonymat ?"
        message="Les noms des élèves remplaceront leurs pseudonymes sur le tableau du jury, avant le gel de la liste. Cette levée est enregistrée dans le journal."
        confirmLabel="Lever l’anonymat"
        danger
        loading={reveal.isPending}
        onCancel={close}
        onConfirm={() => reveal.mutate(undefined, { onSettled: close })}
      />
    </>
  );
}
