import { useId, useState } from 'react';
import { Anchor, Button, CloseButton, FileButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ExerciseView, MyAnswer } from '@olympe/contract';
import { Link } from 'react-router';
import { isPdfFile } from '../../api/files';
import { paths } from '../../config/paths';
import { saveStateLabel, type AnswerQueue, type SaveState } from '../../lib/answer-queue';
import { isRefusedKey, keepNumericChars } from './chapter-view';
import { RichText } from './rich-text';
import { usePdfUpload } from './use-pdf-upload';

interface Props {
  exercise: ExerciseView;
  answer: MyAnswer | undefined;
  analysis: boolean;
  userId: string;
  queue: AnswerQueue;
  /** Called after a PDF answer was stored, to reload the saved answers. */
  onUploaded: () => void;
}

/** One exercise of SPEC §2 "Chapter page": title, statement, the answer input of its format, and in analysis mode its score. */
export function ExerciseCard({ exercise, answer, analysis, userId, queue, onUploaded }: Props) {
  const titleId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={titleId}>
          {exercise.title}
        </Title>
        <RichText content={exercise.statement} label={`Énoncé : ${exercise.title}`} />
        {exercise.answerFormat === 'numeric' && (
          <NumericAnswer exerciseId={exercise._id} answer={answer} analysis={analysis} userId={userId} queue={queue} />
        )}
        {exercise.answerFormat === 'pdf' && (
          <PdfAnswer exerciseId={exercise._id} answer={answer} analysis={analysis} userId={userId} onUploaded={onUploaded} />
        )}
        {analysis && exercise.answerFormat !== 'none' && (
          <Stack gap={4}>
            <Text fw={600}>Score : {answer?.grade ?? 0}</Text>
            <Text fw={600}>Commentaire :</Text>
            {answer?.grade_comment ? <RichText content={answer.grade_comment} label={`Commentaire : ${exercise.title}`} /> : null}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function SaveStateText({ exerciseId, state }: { exerciseId: string; state: SaveState }) {
  const label = saveStateLabel(state);
  // Orange text on white is below 4.5:1 (axe): an offline state is said in bold dark text instead.
  const color = state.kind === 'refused' ? 'red.9' : state.kind === 'offline' ? 'gray.9' : 'dimmed';
  return (
    <Text size="sm" c={color} fw={state.kind === 'offline' ? 700 : undefined} role="status" data-testid={`save-state-${exerciseId}`}>
      {label ?? ''}
    </Text>
  );
}

function NumericAnswer({
  exerciseId,
  answer,
  analysis,
  userId,
  queue,
}: {
  exerciseId: string;
  answer: MyAnswer | undefined;
  analysis: boolean;
  userId: string;
  queue: AnswerQueue;
}) {
  // A value typed on this device and newer than the server's is shown (DESIGN §4, after a reload).
  const [value, setValue] = useState(() => queue.valueToShow(userId, exerciseId, answer));
  return (
    <Stack gap={4}>
      <Group align="end" gap="md">
        <TextInput
          label="Votre réponse :"
          placeholder="?"
          inputMode="decimal"
          autoComplete="off"
          maw={240}
          value={value}
          disabled={analysis}
          onKeyDown={(event) => {
            if (isRefusedKey(event)) event.preventDefault();
          }}
          onChange={(event) => {
            const next = keepNumericChars(event.currentTarget.value);
            setValue(next);
            queue.enqueue(userId, exerciseId, next);
          }}
        />
        <Anchor component={Link} to={paths.history(userId, exerciseId)}>
          Historique
        </Anchor>
      </Group>
      {!analysis && <SaveStateText exerciseId={exerciseId} state={queue.stateOf(userId, exerciseId)} />}
    </Stack>
  );
}

function PdfAnswer({
  exerciseId,
  answer,
  analysis,
  userId,
  onUploaded,
}: {
  exerciseId: string;
  answer: MyAnswer | undefined;
  analysis: boolean;
  userId: string;
  onUploaded: () => void;
}) {
  const { file, setFile, state, send } = usePdfUpload({ userId, exerciseId, onUploaded });

  return (
    <Stack gap="xs">
      {answer ? (
        // SPEC §2: "Voir la copie" is a history link (the history page lists every copy with "Visualiser").
        <Anchor component={Link} to={paths.history(userId, exerciseId)}>
          Voir la copie
        </Anchor>
      ) : (
        !analysis && <Text size="sm">Aucune copie envoyée pour l’instant.</Text>
      )}
      {!analysis && (
        <>
          <Group gap="sm">
            <FileButton accept="application/pdf" onChange={(chosen) => setFile(chosen && isPdfFile(chosen) ? chosen : null)}>
              {(props) => (
                <Button variant="default" {...props}>
                  Choisir un fichier PDF
                </Button>
              )}
            </FileButton>
            {file && (
              <Group gap={4}>
                <Text size="sm">{file.name}</Text>
                <CloseButton size="sm" aria-label={`Retirer ${file.name}`} onClick={() => setFile(null)} />
              </Group>
            )}
            <Button disabled={!file} loading={state.kind === 'saving'} onClick={send}>
              Téléverser
            </Button>
          </Group>
          <SaveStateText exerciseId={exerciseId} state={state} />
        </>
      )}
    </Stack>
  );
}
