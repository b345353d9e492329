import { Alert, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { formatTotal, type ReturnedExercise } from '@olympe/contract';
import { downloadCorrectedCopy, useReturnedCopies } from '../../api/results';
import { AnnotationView, annotationText } from '../../components/AnnotationView';
import { DownloadButton } from '../../components/download-button';
import { PdfView } from '../../components/PdfView';

export const DOWNLOAD_COPY_LABEL = 'Télécharger ma copie corrigée';

const gradeText = (e: ReturnedExercise) => (e.excused ? 'X' : e.grade === null ? 'non notée' : formatTotal(e.grade, e.maxPoints));

/** One exercise's returned copy: its pages with the marks over them, the marks in words, the comment, the PDF. */
function ReturnedCopy({ chapterId, title, exercise }: { chapterId: string; title: string; exercise: ReturnedExercise }) {
  const annotations = exercise.layers.flatMap((l) => l.annotations);
  const items = Object.fromEntries(exercise.items.map((i) => [i.id, i.text]));
  const correctors = exercise.layers.flatMap((l) => (l.corrector ? [l.corrector] : []));
  const notes = annotations.filter((a) => a.kind === 'note' || a.kind === 'bank' || a.kind === 'item');
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Copie corrigée : ${exercise.title}`}>
      <Stack gap="xs">
        <Title order={3} size="h4">
          {exercise.title} — {gradeText(exercise)}
        </Title>
        {correctors.length > 0 && (
          <Text size="sm">
            {correctors.length > 1 ? 'Correcteurs' : 'Correcteur'}
            {'\u00a0'}: {correctors.join(', ')}
          </Text>
        )}
        {exercise.comment && (
          <Text style={{ whiteSpace: 'pre-wrap' }}>
            <Text span fw={700}>
              Commentaire{'\u00a0'}:
            </Text>{' '}
            {exercise.comment}
          </Text>
        )}
        {exercise.pdf && (
          <PdfView
            path={exercise.pdf}
            label={`Copie ${exercise.title}`}
            overlay={(page) => <AnnotationView annotations={annotations} page={page} items={items} />}
          />
        )}
        {notes.length > 0 && (
          <ol aria-label={`Remarques sur la copie : ${exercise.title}`}>
            {notes.map((a) => (
              <li key={a.id}>
                Page {a.page + 1}
                {'\u00a0'}: {annotationText(a, items)}
              </li>
            ))}
          </ol>
        )}
        <DownloadButton label={DOWNLOAD_COPY_LABEL} run={() => downloadCorrectedCopy(chapterId, exercise._id, title, exercise.title)} />
      </Stack>
    </Paper>
  );
}

/** Decision 162: the pupil's corrected copies, once the chapter returns them. */
export function ReturnedCopies({ chapterId, title }: { chapterId: string; title: string }) {
  const query = useReturnedCopies(chapterId, true);
  if (query.isPending) return <Loader size="sm" aria-label="Chargement des copies corrigées" />;
  if (query.isError) return <Alert color="red">Impossible de charger vos copies corrigées.</Alert>;
  const answered = query.data.exercises.filter((e) => e.pdf !== null || e.layers.length > 0 || e.grade !== null || e.excused);
  return (
    <Stack gap="sm" component="section" aria-labelledby="returned-copies">
      <Title order={2} size="h3" id="returned-copies">
        Vos copies corrigées
      </Title>
      {answered.length === 0 ? (
        <Text>Aucune copie corrigée à vous rendre.</Text>
      ) : (
        answered.map((e) => <ReturnedCopy key={e._id} chapterId={chapterId} title={title} exercise={e} />)
      )}
    </Stack>
  );
}
