import { Button, Group, Stack, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { useChapter, useUpdateChapter } from '../../api/chapters';
import { useSelectionChoices } from '../../api/qualifications';
import { showNotice } from '../../api/notify';
import { TitledLoader } from '../../components/TitledLoader';
import { useEditableTable } from '../../hooks/use-editable-table';
import { newAccessRow, toAccessGroups, toFormRow } from './access-form';
import { PageHeading } from '../../components/page-heading';
import { AccessTable } from './access-table';

/** docs/product.md#spec-2 "Access (/access/{id})": the chapter's access groups; the first matching one decides. */
export function AccessPage() {
  const { id = '' } = useParams();
  const query = useChapter(id);
  const saveGroups = useUpdateChapter(id);
  // Decision 157: the selections a group may require (admins list them all).
  const selections = useSelectionChoices();
  // The groups are saved as a whole list: a removed row needs no call of its own.
  const { rows, update, remove, add } = useEditableTable({
    data: query.data,
    toRows: (chapter) => (chapter.groups ?? []).map(toFormRow),
  });

  const title = 'Permissions d’accès';
  if (query.isPending) return <TitledLoader title={title} label="Chargement des accès" />;
  if (query.isError) {
    return (
      <Stack>
        <PageHeading>{title}</PageHeading>
        <Text>Impossible de charger ce chapitre.</Text>
      </Stack>
    );
  }

  // Not the hook's save: the one call is not quiet (the server's own message, or the client's error
  // notice, tells the outcome), and the groups reload only after a success, before the button stops loading.
  function save() {
    const result = toAccessGroups(rows);
    if ('error' in result) {
      showNotice(`Erreur : ${result.error}`, 'red');
      return;
    }
    saveGroups.mutate({ groups: result.groups }, { onError: (error) => console.error(error) });
  }

  return (
    <Stack>
      <PageHeading>{title}</PageHeading>
      <Text fw={600}>{query.data.title}</Text>
      <Text size="sm">
        Le premier groupe (dans l’ordre du tableau) qui correspond à l’élève décide de sa fenêtre d’accès et de sa durée. Dates et heures de
        Paris.
      </Text>
      <AccessTable
        rows={rows}
        selections={(selections.data ?? []).map((s) => ({ value: s._id, label: s.title }))}
        onUpdate={update}
        onRemove={remove}
      />
      <Group>
        <Button variant="default" onClick={() => add(newAccessRow())}>
          Ajouter un groupe d’accès
        </Button>
        <Button onClick={save} loading={saveGroups.isPending}>
          Enregistrer
        </Button>
      </Group>
    </Stack>
  );
}
