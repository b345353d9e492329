import { useMemo, useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { useChapter, useUpdateChapter } from '../../api/chapters';
import { createExercise, deleteExercise, exerciseKeys, useDownloadSubject, useRawExercises } from '../../api/exercises';
import { TitledLoader } from '../../components/TitledLoader';
import { useEditableTable } from '../../hooks/use-editable-table';
import { draftOf, hasChanges, newExercise, planExerciseSave, type ExerciseSavePlan } from './plan-save';
import { PageHeading } from '../../components/page-heading';
import { ChapterHeaders, type HeaderField } from './chapter-headers';
import { DeleteExerciseDialog } from './delete-exercise-dialog';
import { ExercisesTable } from './exercise-rows';
import { saveSchemeChange, useSchemeConfirm } from './scheme-change-dialog';

/**
 * docs/product.md#spec-2 "Exercise management (/exos/{id})", "Gestion du chapitre": the instructions (saved when
 * the text area is left), the exercise table (saved with "Enregistrer") and the LaTeX subject.
 */
export function ExosPage() {
  const { id = '' } = useParams();
  const chapterQuery = useChapter(id);
  const exercisesQuery = useRawExercises(id);
  const updateChapter = useUpdateChapter(id);
  const {
    rows: drafts,
    deleted,
    update: edit,
    remove: removeExercise,
    add,
    save,
    saving,
  } = useEditableTable({
    data: exercisesQuery.data,
    toRows: (exercises) => exercises.map(draftOf),
    deletedOf: (d) => d._id,
  });
  // Decision 69: a saved exercise's deletion is confirmed with the copies and grades that go with it.
  const [deleting, setDeleting] = useState<(typeof drafts)[number] | null>(null);
  const schemeConfirm = useSchemeConfirm();

  const plan = useMemo(() => planExerciseSave(drafts, deleted), [drafts, deleted]);
  const dirty = 'error' in plan || hasChanges(plan);

  const title = 'Gestion du chapitre';
  if (chapterQuery.isPending || exercisesQuery.isPending) return <TitledLoader title={title} label="Chargement du chapitre" />;
  if (chapterQuery.isError || exercisesQuery.isError) {
    return (
      <Stack>
        <PageHeading>{title}</PageHeading>
        <Text>Impossible de charger ce chapitre.</Text>
      </Stack>
    );
  }
  const chapter = chapterQuery.data;

  function saveHeader(field: HeaderField, value: string) {
    updateChapter.mutate({ [field]: value }, { onError: (error) => console.error(error) });
  }

  const saveExercises = () => save(exerciseSaveSteps(id, schemeConfirm.ask));

  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      <Text fw={600}>{chapter.title}</Text>

      <ChapterHeaders chapter={chapter} onSave={saveHeader} />

      <Title order={2} size="h4">
        Exercices
      </Title>
      <ExercisesTable drafts={drafts} edit={edit} onDelete={(d) => (d._id ? setDeleting(d) : removeExercise(d))} />
      {dirty && (
        <Text size="sm" c="red.9" role="status">
          Modifications non enregistrées.
        </Text>
      )}
      <Group>
        <Button variant="default" onClick={() => add(newExercise())}>
          Ajouter un exercice
        </Button>
        <Button onClick={saveExercises} loading={saving}>
          Enregistrer
        </Button>
        <SubjectDownload chapterId={id} title={chapter.title} />
      </Group>
      {schemeConfirm.dialog}
      <DeleteExerciseDialog
        deleting={deleting}
        onCancel={() => setDeleting(null)}
        onConfirm={(d) => {
          removeExercise(d);
          setDeleting(null);
        }}
      />
    </Stack>
  );
}

/** The chapter's LaTeX subject, downloaded under its title. */
function SubjectDownload({ chapterId, title }: { chapterId: string; title: string }) {
  const subject = useDownloadSubject(chapterId);
  return (
    <Button
      variant="light"
      leftSection={<IconDownload size={16} aria-hidden="true" />}
      onClick={() => subject.mutate(title)}
      loading={subject.isPending}
    >
      Télécharger le sujet (LaTeX)
    </Button>
  );
}

/** What « Enregistrer » sends for the exercise table. */
function exerciseSaveSteps(chapterId: string, ask: Parameters<typeof saveSchemeChange>[2]) {
  return {
    plan: planExerciseSave,
    // Same order as the chapter list (docs/product.md#spec-7): deletions, then creations, then updates; quiet calls, one outcome.
    run: async ({ deletes, creates, updates }: ExerciseSavePlan) => {
      for (const exerciseId of deletes) await deleteExercise(exerciseId, true);
      for (const fields of creates) await createExercise({ ...fields, chapter: chapterId }, true);
      // A scheme change the admin does not confirm is not sent (decision 161); the others are.
      for (const u of updates) await saveSchemeChange(u._id, u.changes, ask);
    },
    queryKey: exerciseKeys.raw(chapterId),
  };
}
