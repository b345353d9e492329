import { useMemo, useState } from 'react';
import { ActionIcon, Button, Group, Paper, ScrollArea, Select, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconDownload, IconPlus, IconTrash } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { ANSWER_FORMAT_LABELS, ANSWER_FORMATS, BIN_DAYS, type AnswerFormat } from '@olympe/contract';
import { useChapter, useUpdateChapter } from '../../api/chapters';
import { createExercise, deleteExercise, exerciseKeys, updateExercise, useDownloadSubject, useRawExercises } from '../../api/exercises';
import { MathText } from '../../components/MathText';
import { TitledLoader } from '../../components/TitledLoader';
import { useEditableTable } from '../../hooks/use-editable-table';
import { draftOf, hasChanges, newExercise, newVersion, planExerciseSave } from './plan-save';
import { PageHeading } from '../../components/page-heading';
import { SchemeEditor } from './scheme-editor';
import { useDeletionImpact } from '../../api/results';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';

const formatOptions = ANSWER_FORMATS.map((f) => ({ value: f, label: ANSWER_FORMAT_LABELS[f] }));

/**
 * docs/product.md#spec-2 "Exercise management (/exos/{id})", "Gestion du chapitre": the instructions (saved when
 * the text area is left), the exercise table (saved with "Enregistrer") and the LaTeX subject.
 */
export function ExosPage() {
  const { id = '' } = useParams();
  const chapterQuery = useChapter(id);
  const exercisesQuery = useRawExercises(id);
  const updateChapter = useUpdateChapter(id);
  const subject = useDownloadSubject(id);
  const { rows: drafts, deleted, update: edit, remove: removeExercise, add, save, saving } = useEditableTable({
    data: exercisesQuery.data,
    toRows: (exercises) => exercises.map(draftOf),
    deletedOf: (d) => d._id,
  });
  // Decision 69: a saved exercise's deletion is confirmed with the copies and grades that go with it.
  const [deleting, setDeleting] = useState<(typeof drafts)[number] | null>(null);
  const impact = useDeletionImpact('exercise', deleting?._id ?? null);

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

  function saveHeader(field: 'headerStudents' | 'headerCenters', value: string) {
    updateChapter.mutate({ [field]: value }, { onError: (error) => console.error(error) });
  }

  const saveExercises = () =>
    save({
      plan: planExerciseSave,
      // Same order as the chapter list (docs/product.md#spec-7): deletions, then creations, then updates; quiet calls, one outcome.
      run: async ({ deletes, creates, updates }) => {
        for (const exerciseId of deletes) await deleteExercise(exerciseId, true);
        for (const fields of creates) await createExercise({ ...fields, chapter: id }, true);
        for (const u of updates) await updateExercise(u._id, u.changes, true);
      },
      queryKey: exerciseKeys.raw(id),
    });


  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      <Text fw={600}>{chapter.title}</Text>

      <Stack gap={4}>
        <Title order={2} size="h4">
          Instructions pour les élèves
        </Title>
        <MathText
          label="Instructions pour les élèves"
          value={chapter.headerStudents}
          onChange={(value) => saveHeader('headerStudents', value)}
        />
      </Stack>
      {chapter.offline && (
        <Stack gap={4}>
          <Title order={2} size="h4">
            Instructions pour les centres d’examen
          </Title>
          <MathText
            label="Instructions pour les centres d’examen"
            value={chapter.headerCenters ?? ''}
            onChange={(value) => saveHeader('headerCenters', value)}
          />
        </Stack>
      )}

      <Title order={2} size="h4">
        Exercices
      </Title>
      {/* docs/accessibility.md: on a phone the table scrolls sideways in a focusable region instead of squeezing the title
          and type to a letter and pushing the page wider than the screen. */}
      <ScrollArea type="auto" offsetScrollbars="x" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Tableau des exercices' }}>
      <Table aria-label="Exercices" verticalSpacing="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={240}>Titre</Table.Th>
            <Table.Th w={170}>Type</Table.Th>
            <Table.Th>Versions</Table.Th>
            <Table.Th w={80}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {drafts.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={4}>Aucun exercice.</Table.Td>
            </Table.Tr>
          )}
          {drafts.map((d, i) => {
            const n = i + 1;
            return (
              <Table.Tr key={d.key} style={{ verticalAlign: 'top' }}>
                <Table.Td miw={180}>
                  <TextInput
                    aria-label={`Titre de l’exercice ${n}`}
                    value={d.title}
                    onChange={(e) => edit(d.key, { title: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td miw={150}>
                  <Select
                    aria-label={`Type de réponse de l’exercice ${n}`}
                    data={formatOptions}
                    value={d.answerFormat}
                    allowDeselect={false}
                    onChange={(v) => v && edit(d.key, { answerFormat: v as AnswerFormat })}
                  />
                  {d.answerFormat !== 'none' && (
                    <TextInput
                      mt="xs"
                      label="Noté sur"
                      aria-label={`Noté sur (points) : exercice ${n}`}
                      description="Points, ex. 2,5"
                      inputMode="decimal"
                      value={d.maxPoints}
                      onChange={(e) => edit(d.key, { maxPoints: e.currentTarget.value })}
                    />
                  )}
                </Table.Td>
                <Table.Td>
                  <Stack gap="sm">
                    {d.versions.map((v, k) => (
                      <Paper key={v.key} withBorder p="sm">
                        <Group justify="space-between" mb={6}>
                          <Text size="sm" fw={600}>
                            Version {k + 1}
                          </Text>
                          <Tooltip label={d.versions.length === 1 ? 'Un exercice garde au moins une version' : 'Retirer la version'}>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              disabled={d.versions.length === 1}
                              aria-label={`Retirer la version ${k + 1} de l’exercice ${n}`}
                              onClick={() => edit(d.key, (x) => ({ versions: x.versions.filter((y) => y.key !== v.key) }))}
                            >
                              <IconTrash size={16} aria-hidden="true" />
                            </ActionIcon>
                          </Tooltip>
                        </Group>
                        <MathText
                          label={`Énoncé de la version ${k + 1} de l’exercice ${n}`}
                          value={v.content}
                          onChange={(content) =>
                            edit(d.key, (x) => ({ versions: x.versions.map((y) => (y.key === v.key ? { ...y, content } : y)) }))
                          }
                        />
                        {d.answerFormat === 'numeric' && (
                          <TextInput
                            mt="xs"
                            maw={260}
                            label={`Réponse attendue (version ${k + 1})`}
                            aria-label={`Réponse attendue (version ${k + 1}) de l’exercice ${n}`}
                            placeholder="ex. 3,5"
                            inputMode="decimal"
                            value={v.answer}
                            onChange={(e) => {
                              const answer = e.currentTarget.value;
                              edit(d.key, (x) => ({ versions: x.versions.map((y) => (y.key === v.key ? { ...y, answer } : y)) }));
                            }}
                          />
                        )}
                      </Paper>
                    ))}
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      leftSection={<IconPlus size={14} aria-hidden="true" />}
                      onClick={() => edit(d.key, (x) => ({ versions: [...x.versions, newVersion()] }))}
                      aria-label={`Ajouter une version à l’exercice ${n}`}
                      w="fit-content"
                    >
                      Ajouter une version
                    </Button>
                    {d.answerFormat !== 'none' && <SchemeEditor n={n} scheme={d.scheme} onChange={(scheme) => edit(d.key, { scheme })} />}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Tooltip label="Supprimer l’exercice">
                    <ActionIcon variant="subtle" color="red" aria-label={`Supprimer l’exercice ${n} (${d.title})`} onClick={() => (d._id ? setDeleting(d) : removeExercise(d))}>
                      <IconTrash size={18} aria-hidden="true" />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      </ScrollArea>
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
        <Button variant="light" leftSection={<IconDownload size={16} aria-hidden="true" />} onClick={() => subject.mutate(chapter.title)} loading={subject.isPending}>
          Télécharger le sujet (LaTeX)
        </Button>
      </Group>
      <ConfirmDialog
        opened={deleting !== null}
        title="Supprimer cet exercice ?"
        message={
          deleting && impact.data
            ? `« ${deleting.title} » ira à la corbeille à l’enregistrement${impact.data.answers > 0 ? ` avec ${countOf(impact.data.answers, 'copie')} de ${countOf(impact.data.pupils, 'élève')} et ${countOf(impact.data.grades, 'note')}` : ' (aucune copie)'} ; un administrateur peut l’en sortir pendant ${BIN_DAYS} jours.`
            : null
        }
        confirmLabel="Supprimer"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) removeExercise(deleting);
          setDeleting(null);
        }}
      />
    </Stack>
  );
}
