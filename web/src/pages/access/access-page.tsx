import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  NumberInput,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { GENDERS, GRADE_LABELS, GRADES, type Gender, type Grade } from '@olympe/contract';
import { useChapter, useUpdateChapter } from '../../api/chapters';
import { showNotice } from '../../api/notify';
import { TitledLoader } from '../../components/TitledLoader';
import { useEditableTable } from '../../hooks/use-editable-table';
import { newAccessRow, toAccessGroups, toFormRow } from './access-form';
import { PageHeading } from '../../components/page-heading';
import { DateField, DateTimeField } from '../../components/DateFields';

const GENDER_LABELS: Record<Gender, string> = { male: 'Garçon', female: 'Fille', other: 'Autre' };
const genderOptions = GENDERS.map((g) => ({ value: g, label: GENDER_LABELS[g] }));
const gradeOptions = GRADES.map((g) => ({ value: g, label: GRADE_LABELS[g] }));

/** docs/product.md#spec-2 "Access (/access/{id})": the chapter's access groups; the first matching one decides. */
export function AccessPage() {
  const { id = '' } = useParams();
  const query = useChapter(id);
  const saveGroups = useUpdateChapter(id);
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
        Le premier groupe (dans l’ordre du tableau) qui correspond à l’élève décide de sa fenêtre d’accès et de sa durée. Dates et
        heures de Paris.
      </Text>
      {/* The wide table scrolls sideways: its viewport is focusable so the keyboard can scroll it. */}
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Tableau des groupes d’accès' }}>
        {/* Paired fields share a column, one above the other, each with its visible label: the table
            fits the 968 px a 1280 px screen leaves beside the sidebar, « Début » and « Fin » included
            (it was 1,200 px wide, the test window behind a scrollbar). A phone still scrolls sideways. */}
        <Table striped aria-label="Groupes d’accès" miw={760} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Nom</Table.Th>
              <Table.Th>Genres et classes</Table.Th>
              <Table.Th>Date de naissance</Table.Th>
              <Table.Th w={110}>Durée (minutes)</Table.Th>
              <Table.Th>Accès (heure de Paris)</Table.Th>
              <Table.Th w={70}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={6}>Aucun groupe d’accès : aucun élève ne voit ce chapitre.</Table.Td>
              </Table.Tr>
            )}
            {rows.map((row, i) => {
              const n = `du groupe ${i + 1}`;
              return (
                <Table.Tr key={row.key}>
                  <Table.Td miw={110}>
                    <TextInput aria-label={`Nom ${n}`} value={row.name} onChange={(e) => update(row.key, { name: e.currentTarget.value })} />
                  </Table.Td>
                  <Table.Td miw={200}>
                    <MultiSelect
                      aria-label={`Genres ${n}`}
                      data={genderOptions}
                      value={row.genders}
                      onChange={(v) => update(row.key, { genders: v as Gender[] })}
                      mb={6}
                    />
                    <MultiSelect
                      aria-label={`Classes ${n}`}
                      data={gradeOptions}
                      value={row.grades}
                      onChange={(v) => update(row.key, { grades: v as Grade[] })}
                    />
                  </Table.Td>
                  <Table.Td miw={150}>
                    <DateField
                      label="Au plus tôt"
                      size="xs"
                      aria-label={`Au plus tôt : date de naissance minimale ${n}`}
                      value={row.birthDateMin}
                      onChange={(v) => update(row.key, { birthDateMin: v })}
                      mb={6}
                    />
                    <DateField
                      label="Au plus tard"
                      size="xs"
                      aria-label={`Au plus tard : date de naissance maximale ${n}`}
                      value={row.birthDateMax}
                      onChange={(v) => update(row.key, { birthDateMax: v })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumberInput
                      aria-label={`Durée en minutes ${n}`}
                      min={0}
                      allowNegative={false}
                      allowDecimal={false}
                      placeholder="Illimitée"
                      value={row.duration}
                      onChange={(v) => update(row.key, { duration: typeof v === 'number' ? v : v === '' ? '' : Number(v) })}
                    />
                  </Table.Td>
                  <Table.Td miw={190}>
                    <DateTimeField
                      label="Début"
                      size="xs"
                      aria-label={`Début de l’accès ${n} (heure de Paris)`}
                      value={row.start}
                      onChange={(v) => update(row.key, { start: v })}
                      mb={6}
                    />
                    <DateTimeField
                      label="Fin"
                      size="xs"
                      aria-label={`Fin de l’accès ${n} (heure de Paris)`}
                      value={row.end}
                      onChange={(v) => update(row.key, { end: v })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label="Supprimer">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Supprimer le groupe ${i + 1} (${row.name})`}
                        onClick={() => remove(row)}
                      >
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
