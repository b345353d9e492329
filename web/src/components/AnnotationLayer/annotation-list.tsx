import { useState } from 'react';
import { ActionIcon, Button, Group, Paper, Select, Stack, Text, Textarea, Title, VisuallyHidden } from '@mantine/core';
import { IconArrowsMove, IconPencil, IconTrash } from '@tabler/icons-react';
import { NOTE_TEXT_MAX, type Annotation } from '@olympe/contract';
import { anchorOf, describeMark, moveMark, regionOf, REGIONS } from './marks';
import type { MarksState } from './use-marks';

/** One arrow key moves a mark by this fraction of the page. */
const KEY_STEP = 0.02;
const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-KEY_STEP, 0],
  ArrowRight: [KEY_STEP, 0],
  ArrowUp: [0, -KEY_STEP],
  ArrowDown: [0, KEY_STEP],
};
const MOVE_HINT_ID = 'annotation-move-hint';

const where = (mark: Annotation) => `Page ${mark.page + 1}, ${regionOf(anchorOf(mark))}`;

/**
 * The marks as a list (decision 159: keyboard users manage the same notes): each with its page, its place and its
 * text; a note added by page and region (a 3 × 3 grid), reworded, moved with the arrow keys, deleted.
 */
export function AnnotationList({
  state,
  pages,
  itemText,
}: {
  state: MarksState;
  pages: number;
  itemText: (id: string) => string | undefined;
}) {
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [said, setSaid] = useState('');
  const marks = [...state.marks].sort((a, b) => a.page - b.page);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={2} size="h4" id="annotation-list-title">
          Annotations
        </Title>
        {marks.length === 0 ? (
          <Text size="sm" c="gray.7">
            Aucune annotation sur cette copie.
          </Text>
        ) : (
          <Stack component="ul" gap={4} aria-labelledby="annotation-list-title" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {marks.map((mark) => {
              const text = describeMark(mark, itemText);
              return (
                <li key={mark.id}>
                  {editing?.id === mark.id ? (
                    <NoteEdit
                      text={editing.text}
                      onChange={(t) => setEditing({ id: mark.id, text: t })}
                      onCancel={() => setEditing(null)}
                      onSave={() => {
                        if (mark.kind === 'note' && editing.text.trim()) state.replace({ ...mark, text: editing.text.trim() });
                        setEditing(null);
                      }}
                    />
                  ) : (
                    <MarkRow mark={mark} text={text} state={state} onEdit={setEditing} onMoved={setSaid} />
                  )}
                </li>
              );
            })}
          </Stack>
        )}
        <Text size="xs" c="gray.7" id={MOVE_HINT_ID}>
          Sur « Déplacer », les flèches du clavier déplacent l’annotation.
        </Text>
        <VisuallyHidden role="status" aria-live="polite">
          {said}
        </VisuallyHidden>
        <AddNote pages={pages} onAdd={(page, region, text) => state.saveNote({ id: null, page, at: REGIONS[region]!.at, text })} />
      </Stack>
    </Paper>
  );
}

function NoteEdit({
  text,
  onChange,
  onSave,
  onCancel,
}: {
  text: string;
  onChange: (t: string) => void;
  onSave: () => void;
  onCancel: () => void;
}) {
  return (
    <Stack gap={4}>
      <Textarea
        label="Texte de l’annotation"
        value={text}
        maxLength={NOTE_TEXT_MAX}
        autosize
        autoFocus
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <Group gap="xs" justify="flex-end">
        <Button size="compact-sm" variant="default" onClick={onCancel}>
          Annuler
        </Button>
        <Button size="compact-sm" onClick={onSave} disabled={text.trim() === ''}>
          Enregistrer la note
        </Button>
      </Group>
    </Stack>
  );
}

/** « Ajouter une note »: its page, its region of the page and its text, all from the keyboard. */
function AddNote({ pages, onAdd }: { pages: number; onAdd: (page: number, region: number, text: string) => void }) {
  const [page, setPage] = useState('0');
  const [region, setRegion] = useState('0');
  const [text, setText] = useState('');
  return (
    <Stack gap={4} role="group" aria-label="Ajouter une note">
      <Group gap="xs" grow>
        <Select
          label="Page"
          size="xs"
          allowDeselect={false}
          value={page}
          onChange={(v) => v !== null && setPage(v)}
          data={Array.from({ length: Math.max(1, pages) }, (_, i) => ({ value: String(i), label: `Page ${i + 1}` }))}
        />
        <Select
          label="Emplacement"
          size="xs"
          allowDeselect={false}
          value={region}
          onChange={(v) => v !== null && setRegion(v)}
          data={REGIONS.map((r, i) => ({ value: String(i), label: r.label }))}
        />
      </Group>
      <Textarea
        label="Texte de la nouvelle annotation"
        size="xs"
        value={text}
        maxLength={NOTE_TEXT_MAX}
        autosize
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <Button
        size="compact-sm"
        variant="light"
        w="fit-content"
        disabled={text.trim() === ''}
        onClick={() => {
          onAdd(Number(page), Number(region), text);
          setText('');
        }}
      >
        Ajouter la note
      </Button>
    </Stack>
  );
}

/** A mark in the list: its place and text, « Déplacer » (arrow keys), « Modifier » for a note, « Supprimer ». */
function MarkRow({
  mark,
  text,
  state,
  onEdit,
  onMoved,
}: {
  mark: Annotation;
  text: string;
  state: MarksState;
  onEdit: (editing: { id: string; text: string }) => void;
  onMoved: (said: string) => void;
}) {
  return (
    <Group gap={4} wrap="nowrap" justify="space-between">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {where(mark)} : {text}
      </Text>
      <Group gap={2} wrap="nowrap">
        <ActionIcon
          variant="subtle"
          aria-label={`Déplacer : ${text}`}
          aria-describedby={MOVE_HINT_ID}
          onKeyDown={(e) => {
            const delta = ARROWS[e.key];
            if (!delta) return;
            e.preventDefault();
            const moved = moveMark(mark, delta[0], delta[1]);
            state.replace(moved);
            onMoved(`${text} : ${where(moved)}`);
          }}
        >
          <IconArrowsMove size={16} aria-hidden="true" />
        </ActionIcon>
        {mark.kind === 'note' ? (
          <ActionIcon variant="subtle" aria-label={`Modifier : ${text}`} onClick={() => onEdit({ id: mark.id, text: mark.text })}>
            <IconPencil size={16} aria-hidden="true" />
          </ActionIcon>
        ) : null}
        <ActionIcon variant="subtle" color="red.9" aria-label={`Supprimer : ${text}`} onClick={() => state.remove(mark.id)}>
          <IconTrash size={16} aria-hidden="true" />
        </ActionIcon>
      </Group>
    </Group>
  );
}
