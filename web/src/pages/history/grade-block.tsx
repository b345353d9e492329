import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Checkbox, Group, Kbd, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowRight, IconCheck } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { formatPoints, type AnswerHistory, type GradeState } from '@olympe/contract';
import { useReloadHistory } from '../../api/grading';
import { MathText } from '../../components/MathText';
import { useSession } from '../../session/session-context';
import { filterGradeInput, invalidGradeText, STATUS_TEXT, UNGRADED_TEXT, type GradeEditor, type SaveStatus } from './use-grade-editor';
import { isTypedGrade } from './desk';
import { arrivedFromDesk, useNextCopyMove } from './use-next-copy-move';
import { SchemeChecklist } from './scheme-checklist';
import { SendBackToSorting } from './send-back-to-sorting';

const SHORTCUT_ID = 'desk-shortcut';

interface GradeBlockProps {
  initial: GradeState & { answerId: string };
  history: AnswerHistory;
  /** The copy's grade editor, shared with the marks on the copy (decision 159: saved together). */
  editor: GradeEditor;
  /** The comment bank, under the comment (decision 160). */
  belowComment?: ReactNode;
  /** Places a scheme item on the copy (decision 159). */
  onPlaceItem?: (item: { id: string; text: string }) => void;
}

function statusText(status: SaveStatus, graded: boolean): string {
  return status === 'idle' ? (graded ? '' : UNGRADED_TEXT) : STATUS_TEXT[status];
}

/**
 * The corrector's grade block (docs/product.md#spec-2 « Résultat »): grade, hide, comment, saved 500 ms
 * after each edit; « Enregistré » only after a save of this copy succeeded. « Copie suivante » (and
 * Ctrl + Entrée anywhere on the page) saves what is pending, then opens the next copy with the grade
 * field focused, so a whole pile is graded from the keyboard.
 */
export function GradeBlock({ initial, history, editor, belowComment, onPlaceItem }: GradeBlockProps) {
  const { roles } = useSession();
  const location = useLocation();
  const { exercise, desk } = history;
  const reloadHistory = useReloadHistory(history.user._id, exercise._id);
  const scheme = desk?.schemeItems ?? [];
  const start = { ...initial, items: initial.items ?? desk?.items ?? [] };
  const { form, status, savedOnce, conflict, edit, flush } = editor;
  // A grade typed by hand wins over the sum of the ticked items (decision 65); emptying the field hands it back.
  const [typed, setTyped] = useState(() => isTypedGrade(start.grade, scheme, start.items));
  const { moving, hint, nextCopy } = useNextCopyMove(exercise.chapter, exercise._id, flush);
  // After each save the desk beside is read again (double-correction state, the other grading once
  // both are in); this block keeps its own state (it reads `initial` only when mounted). The server
  // does not hold a copy again for the corrector who just graded it, so this read frees it for the next.
  useEffect(() => {
    if (status === 'saved') void reloadHistory();
  }, [status, reloadHistory]);

  // Mantine's green.9 on white is below 4.5:1 for small text (axe): the word stays dark, the tick is green.
  const statusColor = status === 'invalid' || status === 'error' || status === 'conflict' ? 'red.9' : 'gray.8';
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2}>Résultat</Title>
        {conflict ? <Alert color="red">{conflict}</Alert> : null}
        <Group align="flex-end">
          <TextInput
            label="Note"
            description={`${desk ? `Sur ${formatPoints(desk.maxPoints)}. ` : ''}Chiffres et point, ou X (copie blanche ou excusée)`}
            value={form.grade}
            inputMode="decimal"
            autoComplete="off"
            // Arriving by « Copie suivante »: the keyboard goes on where it was, in the grade field.
            autoFocus={arrivedFromDesk(location.state)}
            aria-describedby={SHORTCUT_ID}
            onChange={(e) => {
              const grade = filterGradeInput(e.currentTarget.value);
              setTyped(grade !== '');
              edit({ grade });
            }}
            w={220}
            error={invalidGradeText(status, desk?.maxPoints)}
          />
          <Checkbox label="Cacher la copie" checked={form.hidden} onChange={(e) => edit({ hidden: e.currentTarget.checked })} mb={6} />
        </Group>
        {scheme.length > 0 ? (
          <SchemeChecklist scheme={scheme} form={form} maxPoints={desk?.maxPoints} typed={typed} edit={edit} onPlace={onPlaceItem} />
        ) : null}
        <MathText
          value={form.comment}
          label="Commentaire général"
          placeholder="Cliquez pour écrire un commentaire…"
          onChange={(comment) => edit({ comment })}
        />
        {belowComment}
        <Group justify="space-between">
          <Text size="sm" c={statusColor} role="status" aria-live="polite" data-testid="grade-status">
            {status === 'saved' ? (
              <IconCheck size={14} aria-hidden="true" color="var(--mantine-color-green-8)" style={{ verticalAlign: 'middle' }} />
            ) : null}{' '}
            {hint ?? statusText(status, initial.grade !== null && initial.grade !== undefined && initial.grade !== '')}
          </Text>
          <Group gap="sm">
            {roles.isAdmin && exercise.answerFormat === 'pdf' ? (
              <SendBackToSorting answerId={initial.answerId} chapterId={exercise.chapter} />
            ) : null}
            {savedOnce ? (
              <Button onClick={nextCopy} loading={moving} rightSection={<IconArrowRight size={16} aria-hidden="true" />}>
                Copie suivante
              </Button>
            ) : null}
          </Group>
        </Group>
        <ShortcutHint />
      </Stack>
    </Paper>
  );
}

function ShortcutHint() {
  return (
    <Text size="sm" c="gray.7" id={SHORTCUT_ID}>
      Raccourci : <Kbd>Ctrl</Kbd> + <Kbd>Entrée</Kbd> enregistre la note et ouvre la copie suivante (depuis n’importe quel champ).
    </Text>
  );
}
