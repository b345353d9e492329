import { useId, useState, type CSSProperties } from 'react';
import { Anchor, Box, Button, CloseButton, FileButton, Group, Paper, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import type { ExerciseView, MyAnswer } from '@olympe/contract';
import { Link } from 'react-router';
import { isPdfFile, isPhotoFile, PHOTO_ACCEPT } from '../../api/files';
import { paths } from '../../config/paths';
import { saveStateLabel, useNumericAnswer, usePdfUpload, type AnswerQueue, type SaveState } from '../../answering';
import { RichText } from './rich-text';
import { withTestReturn } from '../../layout/test-return-bar';
import { PhotoPages } from './photo-pages';
import { scoreText } from './chapter-view';

interface Props {
  exercise: ExerciseView;
  answer: MyAnswer | undefined;
  analysis: boolean;
  /** Decision 139: the pupil took part (answered something): in analysis mode each exercise shows its score. */
  scored?: boolean;
  userId: string;
  queue: AnswerQueue;
  /** The running timed test: « Historique » and « Voir la copie » show the way back and the time left. */
  testChapter?: string | null;
  /** Called after a PDF answer was stored, to reload the saved answers. */
  onUploaded: () => void;
}

/** One exercise of docs/product.md#spec-2 "Chapter page": title, statement, the answer input of its format, and in analysis mode its score. */
export function ExerciseCard({ exercise, answer, analysis, scored = true, userId, queue, testChapter = null, onUploaded }: Props) {
  const titleId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={2} size="h3" id={titleId}>
          {exercise.title}
        </Title>
        <RichText content={exercise.statement} html={exercise.statementHtml} label={`Énoncé : ${exercise.title}`} />
        {exercise.answerFormat === 'numeric' && (
          <NumericAnswer
            exerciseId={exercise._id}
            answer={answer}
            analysis={analysis}
            userId={userId}
            queue={queue}
            testChapter={testChapter}
          />
        )}
        {exercise.answerFormat === 'pdf' && (
          <PdfAnswer
            exerciseId={exercise._id}
            answer={answer}
            analysis={analysis}
            userId={userId}
            testChapter={testChapter}
            onUploaded={onUploaded}
          />
        )}
        {analysis && scored && exercise.answerFormat !== 'none' && (
          <Stack gap={4}>
            {/* Decision 61: the grade read against what the exercise is worth (« 1 / 2 »). */}
            <Text fw={600}>Score : {scoreText(answer?.grade ?? null, exercise.maxPoints)}</Text>
            <Text fw={600}>Commentaire :</Text>
            {answer?.grade_comment ? <RichText content={answer.grade_comment} label={`Commentaire : ${exercise.title}`} /> : null}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The save state under an answer, or (`unsaved`: the reason) that the value typed is not saved. One
 * live region whose text changes, so a screen reader announces both; the reason is shown by the field.
 */
function SaveStateText({ exerciseId, state, unsaved }: { exerciseId: string; state: SaveState; unsaved?: string | null }) {
  const label = unsaved ? NOT_SAVED : saveStateLabel(state);
  // Orange text on white is below 4.5:1 (axe): an offline state is said in bold dark text instead.
  const color = unsaved || state.kind === 'refused' ? 'red.9' : state.kind === 'offline' ? 'gray.9' : 'dimmed';
  return (
    <Text
      size="sm"
      c={color}
      fw={state.kind === 'offline' && !unsaved ? 700 : undefined}
      role="status"
      data-testid={`save-state-${exerciseId}`}
    >
      {unsaved && <VisuallyHidden>{unsaved} </VisuallyHidden>}
      {label ?? ''}
    </Text>
  );
}

const NOT_SAVED = 'Cette valeur n’est pas enregistrée.';
const ERROR_RED = { '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties;

function NumericAnswer({
  exerciseId,
  answer,
  analysis,
  userId,
  queue,
  testChapter,
}: {
  exerciseId: string;
  answer: MyAnswer | undefined;
  analysis: boolean;
  userId: string;
  queue: AnswerQueue;
  testChapter: string | null;
}) {
  const { value, error, state, change } = useNumericAnswer({ queue, userId, exerciseId, answer, analysis });
  if (analysis) {
    // Decision 141: published results show the answer as text in the page's own colour. A disabled field was grey on
    // grey (1.75:1), and axe's contrast rule does not check disabled fields.
    return (
      <Group gap="md" wrap="wrap" align="baseline">
        <Text data-testid={`answer-${exerciseId}`}>
          Votre réponse :{' '}
          <Text span fw={700}>
            {value.trim() === '' ? 'aucune réponse' : value}
          </Text>
        </Text>
        <Anchor component={Link} to={withTestReturn(paths.history(userId, exerciseId), testChapter)}>
          Historique
        </Anchor>
      </Group>
    );
  }
  return (
    <Stack gap={4}>
      <TextInput
        label="Votre réponse :"
        placeholder="?"
        // The text keyboard: iOS's `decimal` and `numeric` pads have no minus key and no `/`.
        inputMode="text"
        autoComplete="off"
        autoCorrect="off"
        autoCapitalize="off"
        spellCheck={false}
        maw={360}
        // Mantine's error red (shade 6) is about 3.3:1 on white (axe); shade 9 passes AA.
        style={ERROR_RED}
        value={value}
        // Mantine links the message to the field (aria-describedby) and sets aria-invalid.
        error={error}
        // The link beside the input, the message under both.
        inputContainer={(input) => (
          <Group gap="md" wrap="nowrap">
            <Box w={240}>{input}</Box>
            <Anchor component={Link} to={withTestReturn(paths.history(userId, exerciseId), testChapter)}>
              Historique
            </Anchor>
          </Group>
        )}
        onChange={(event) => change(event.currentTarget.value)}
      />
      <SaveStateText exerciseId={exerciseId} state={state} unsaved={error} />
    </Stack>
  );
}

/** Said when a chosen file is neither a PDF nor a photo the server reads (decision 140). */
const UNREADABLE_FILE_MESSAGE = 'Cette image n’a pas pu être lue\u00a0: envoyez une photo JPEG, PNG ou HEIC, ou un PDF.';

/** Beside « Choisir un fichier PDF »: the same button takes photos of the copy (decision 140). */
const PHOTO_HINT = 'Sur un téléphone, vous pouvez aussi photographier votre copie, une photo par page (JPEG, PNG ou HEIC).';

/**
 * docs/product.md#spec-5: a PDF, or photos of the copy (decision 140) taken with the phone's camera or chosen in
 * its gallery (`capture` is not set: the phone offers both), previewed, ordered, then made into one PDF by the server.
 */
function PdfAnswer({
  exerciseId,
  answer,
  analysis,
  userId,
  testChapter,
  onUploaded,
}: {
  exerciseId: string;
  answer: MyAnswer | undefined;
  analysis: boolean;
  userId: string;
  testChapter: string | null;
  onUploaded: () => void;
}) {
  const { file, setFile, photos, setPhotos, state, send, sendPhotos } = usePdfUpload({ userId, exerciseId, onUploaded });
  const [refused, setRefused] = useState<string | null>(null);
  const photoHintId = useId();
  const choose = (chosen: File[]) => {
    const pdf = chosen.find(isPdfFile);
    const pictures = chosen.filter((f) => !isPdfFile(f) && isPhotoFile(f));
    setRefused(chosen.some((f) => !isPdfFile(f) && !isPhotoFile(f)) ? UNREADABLE_FILE_MESSAGE : null);
    if (pdf) {
      setFile(pdf);
      setPhotos([]);
    } else if (pictures.length > 0) {
      // Photos taken one at a time add up, page after page.
      setFile(null);
      setPhotos((before) => [...before, ...pictures]);
    }
  };

  return (
    <Stack gap="xs">
      {answer ? (
        // docs/product.md#spec-2: "Voir la copie" is a history link (the history page lists every copy with "Visualiser").
        <Anchor component={Link} to={withTestReturn(paths.history(userId, exerciseId), testChapter)}>
          Voir la copie
        </Anchor>
      ) : (
        !analysis && <Text size="sm">Aucune copie envoyée pour l’instant.</Text>
      )}
      {!analysis && (
        <>
          <Group gap="sm">
            <FileButton accept={`application/pdf,${PHOTO_ACCEPT}`} multiple onChange={choose}>
              {(props) => (
                <Button variant="default" aria-describedby={photoHintId} {...props}>
                  {photos.length > 0 ? 'Ajouter une photo' : 'Choisir un fichier PDF'}
                </Button>
              )}
            </FileButton>
            {file && (
              <Group gap={4}>
                <Text size="sm">{file.name}</Text>
                <CloseButton size="sm" aria-label={`Retirer ${file.name}`} onClick={() => setFile(null)} />
              </Group>
            )}
            {photos.length === 0 && (
              <Button disabled={!file} loading={state.kind === 'saving'} onClick={send}>
                Téléverser
              </Button>
            )}
          </Group>
          {/* The button keeps the product spec's « Choisir un fichier PDF » (docs/product.md#spec-2); photos are said here. */}
          <Text size="sm" c="gray.8" id={photoHintId}>
            {PHOTO_HINT}
          </Text>
          {refused && (
            <Text size="sm" c="red" role="alert">
              {refused}
            </Text>
          )}
          <PhotoPages photos={photos} onChange={setPhotos} onSend={sendPhotos} sending={state.kind === 'saving'} />
          <SaveStateText exerciseId={exerciseId} state={state} />
        </>
      )}
    </Stack>
  );
}
