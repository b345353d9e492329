import { useState } from 'react';
import { Button, Group, Paper, Textarea } from '@mantine/core';
import { NOTE_TEXT_MAX } from '@olympe/contract';
import type { NoteDraft } from './use-marks';

/** The small box where a note pinned to the page is written or reworded (decision 159). */
export function NotePopover({ draft, onSave, onCancel }: { draft: NoteDraft; onSave: (draft: NoteDraft) => void; onCancel: () => void }) {
  const [text, setText] = useState(draft.text);
  // Kept inside the page: near the right or bottom edge the box opens towards the centre.
  const left = draft.at[0] > 0.6 ? undefined : `${draft.at[0] * 100}%`;
  const right = draft.at[0] > 0.6 ? `${(1 - draft.at[0]) * 100}%` : undefined;
  const top = `${Math.min(draft.at[1], 0.75) * 100}%`;
  return (
    <Paper
      withBorder
      shadow="md"
      p="xs"
      w={260}
      role="dialog"
      aria-label={draft.id ? 'Modifier la note' : 'Nouvelle note'}
      style={{ position: 'absolute', left, right, top, zIndex: 2 }}
    >
      <Textarea
        label="Texte de l’annotation"
        value={text}
        maxLength={NOTE_TEXT_MAX}
        autosize
        minRows={2}
        data-autofocus
        autoFocus
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onCancel();
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.stopPropagation();
            onSave({ ...draft, text });
          }
        }}
      />
      <Group justify="flex-end" gap="xs" mt="xs">
        <Button size="compact-sm" variant="default" onClick={onCancel}>
          Annuler
        </Button>
        <Button size="compact-sm" onClick={() => onSave({ ...draft, text })} disabled={text.trim() === ''}>
          Enregistrer la note
        </Button>
      </Group>
    </Paper>
  );
}
