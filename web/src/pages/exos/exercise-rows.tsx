import { ActionIcon, Button, Group, Paper, ScrollArea, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ANSWER_FORMAT_LABELS, ANSWER_FORMATS, type AnswerFormat } from '@olympe/contract';
import { MathText } from '../../components/MathText';
import { newVersion, type ExerciseDraft } from './plan-save';
import { SchemeEditor } from './scheme-editor';
import { BankCuration } from './bank-curation';

const formatOptions = ANSWER_FORMATS.map((f) => ({ value: f, label: ANSWER_FORMAT_LABELS[f] }));

/** The table's edit: changes of a row, or a function of the row that returns them. */
type Edit = (key: string, changes: Partial<ExerciseDraft> | ((row: ExerciseDraft) => Partial<ExerciseDraft>)) => void;

/** The chapter's exercises, one row each, saved with « Enregistrer ». */
export function ExercisesTable({
  drafts,
  edit,
  onDelete,
}: {
  drafts: ExerciseDraft[];
  edit: Edit;
  onDelete: (draft: ExerciseDraft) => void;
}) {
  // docs/accessibility.md: on a phone the table scrolls sideways in a focusable region instead of squeezing the title
  // and type to a letter and pushing the page wider than the screen.
  return (
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
          {drafts.map((d, i) => (
            <ExerciseRow key={d.key} draft={d} n={i + 1} edit={edit} onDelete={onDelete} />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** One exercise: its title, type, points, versions and scheme. */
function ExerciseRow({
  draft,
  n,
  edit,
  onDelete,
}: {
  draft: ExerciseDraft;
  n: number;
  edit: Edit;
  onDelete: (draft: ExerciseDraft) => void;
}) {
  return (
    <Table.Tr key={draft.key} style={{ verticalAlign: 'top' }}>
      <Table.Td miw={180}>
        <TextInput
          aria-label={`Titre de l’exercice ${n}`}
          value={draft.title}
          onChange={(e) => edit(draft.key, { title: e.currentTarget.value })}
        />
      </Table.Td>
      <Table.Td miw={150}>
        <Select
          aria-label={`Type de réponse de l’exercice ${n}`}
          data={formatOptions}
          value={draft.answerFormat}
          allowDeselect={false}
          onChange={(v) => v && edit(draft.key, { answerFormat: v as AnswerFormat })}
        />
        {draft.answerFormat !== 'none' && (
          <TextInput
            mt="xs"
            label="Noté sur"
            aria-label={`Noté sur (points) : exercice ${n}`}
            description="Points, ex. 2,5"
            inputMode="decimal"
            value={draft.maxPoints}
            onChange={(e) => edit(draft.key, { maxPoints: e.currentTarget.value })}
          />
        )}
      </Table.Td>
      <Table.Td>
        <Stack gap="sm">
          <ExerciseVersions draft={draft} n={n} edit={edit} />
          {draft.answerFormat !== 'none' && <SchemeEditor n={n} scheme={draft.scheme} onChange={(scheme) => edit(draft.key, { scheme })} />}
          {draft._id && draft.answerFormat !== 'none' ? <BankCuration exerciseId={draft._id} n={n} /> : null}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Tooltip label="Supprimer l’exercice">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Supprimer l’exercice ${n} (${draft.title})`}
            onClick={() => onDelete(draft)}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
}

/** An exercise's versions, each with its statement and, for a numeric answer, the expected answer. */
function ExerciseVersions({ draft, n, edit }: { draft: ExerciseDraft; n: number; edit: Edit }) {
  return (
    <>
      {draft.versions.map((v, k) => (
        <Paper key={v.key} withBorder p="sm">
          <Group justify="space-between" mb={6}>
            <Text size="sm" fw={600}>
              Version {k + 1}
            </Text>
            <Tooltip label={draft.versions.length === 1 ? 'Un exercice garde au moins une version' : 'Retirer la version'}>
              <ActionIcon
                variant="subtle"
                color="red"
                disabled={draft.versions.length === 1}
                aria-label={`Retirer la version ${k + 1} de l’exercice ${n}`}
                onClick={() => edit(draft.key, (x) => ({ versions: x.versions.filter((y) => y.key !== v.key) }))}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          </Group>
          <MathText
            label={`Énoncé de la version ${k + 1} de l’exercice ${n}`}
            value={v.content}
            onChange={(content) => edit(draft.key, (x) => ({ versions: x.versions.map((y) => (y.key === v.key ? { ...y, content } : y)) }))}
          />
          {draft.answerFormat === 'numeric' && (
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
                edit(draft.key, (x) => ({ versions: x.versions.map((y) => (y.key === v.key ? { ...y, answer } : y)) }));
              }}
            />
          )}
        </Paper>
      ))}
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconPlus size={14} aria-hidden="true" />}
        onClick={() => edit(draft.key, (x) => ({ versions: [...x.versions, newVersion()] }))}
        aria-label={`Ajouter une version à l’exercice ${n}`}
        w="fit-content"
      >
        Ajouter une version
      </Button>
    </>
  );
}
