import { useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { formatParisDateTime, isoToParisWallClock, isWallClock, parisWallClockToIso, type Selection } from '@olympe/contract';
import { useUpdateSelectionPublication, type SelectionPublicationBody } from '../../api/selections';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTimeField } from '../../components/DateFields';

type Mode = SelectionPublicationBody['mode'];

/** Where the selection stands: published, scheduled, or not. */
export function publicationState(s: Pick<Selection, 'published' | 'publishAt'>): string {
  if (s.published) return s.publishAt ? `Publiée le ${formatParisDateTime(s.publishAt)}.` : 'Publiée.';
  return s.publishAt ? `Publication programmée le ${formatParisDateTime(s.publishAt)} (heure de Paris).` : 'Non publiée.';
}

/** What the confirmation says: pupils read the latest version, from when (decision 157). */
export function publicationMessage(mode: Mode, publishAt: string | null, latest: number): string {
  if (mode === 'unpublished')
    return 'Les élèves et les établissements ne verront plus leur qualification tant que la sélection n’est pas publiée de nouveau.';
  // Rendered while the instant is still being typed (the confirmation is mounted closed): no date yet, no crash.
  const when = mode === 'now' || publishAt === null ? 'dès maintenant' : `le ${formatParisDateTime(publishAt)} (heure de Paris)`;
  return latest > 0
    ? `Les élèves et leurs établissements verront ${when} la version ${latest} de la liste, et chaque version gelée ensuite.`
    : `Aucune version n’est gelée : les élèves verront ${when} la première version gelée.`;
}

const CONFIRM: Record<Mode, { title: string; label: string }> = {
  now: { title: 'Publier maintenant ?', label: 'Publier maintenant' },
  scheduled: { title: 'Programmer la publication ?', label: 'Programmer' },
  unpublished: { title: 'Retirer la publication ?', label: 'Retirer la publication' },
};

/** Decision 157: publish the selection now or at a Paris time, or withdraw it; confirmed with what pupils will see. */
export function SelectionPublicationDialog({ selection, onClose }: { selection: Selection; onClose: () => void }) {
  const save = useUpdateSelectionPublication(selection._id);
  const [mode, setMode] = useState<Mode>(selection.published ? 'unpublished' : selection.publishAt ? 'scheduled' : 'now');
  const [wall, setWall] = useState(selection.publishAt ? isoToParisWallClock(selection.publishAt) : '');
  const [confirming, setConfirming] = useState(false);
  const publishAt = mode === 'scheduled' && isWallClock(wall) ? parisWallClockToIso(wall) : null;
  const wallError = mode === 'scheduled' && wall !== '' && publishAt === null ? 'Date et heure de publication invalides.' : null;
  const latest = selection.versions.at(-1)?.number ?? 0;
  return (
    <Modal opened onClose={onClose} title={`Publication : ${selection.title}`} closeButtonProps={{ 'aria-label': 'Fermer' }}>
      <Stack>
        <Text fw={600}>{publicationState(selection)}</Text>
        <Radio.Group label="Publication" value={mode} onChange={(v) => setMode(v as Mode)}>
          <Stack gap={6} mt={4}>
            <Radio value="now" label="Publier maintenant" />
            <Radio value="scheduled" label="Programmer" />
            <Radio value="unpublished" label="Retirer la publication" />
          </Stack>
        </Radio.Group>
        {mode === 'scheduled' && (
          <DateTimeField label="Date et heure de publication (heure de Paris)" value={wall} onChange={setWall} error={wallError} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Annuler
          </Button>
          <Button onClick={() => setConfirming(true)} disabled={mode === 'scheduled' && publishAt === null}>
            {CONFIRM[mode].label}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={CONFIRM[mode].title}
        message={publicationMessage(mode, publishAt, latest)}
        confirmLabel={CONFIRM[mode].label}
        danger={mode === 'unpublished'}
        loading={save.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          save.mutate(
            { mode, publishAt },
            {
              onSuccess: onClose,
              onError: () => setConfirming(false),
            },
          )
        }
      />
    </Modal>
  );
}
