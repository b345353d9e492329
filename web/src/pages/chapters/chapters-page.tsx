import { useEffect, useState } from 'react';
import { ActionIcon, Anchor, Button, Center, Checkbox, Group, Loader, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { NEW_CHAPTER_TITLE } from '@olympe/contract';
import { chapterKeys, createChapter, deleteChapter, fetchChapters, updateChapter } from '../../api/chapters';
import { notifyError } from '../../api/client';
import { showNotice } from '../../api/notify';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';
import { planChapterSave, rowOf, runChapterSave, type ChapterRow } from './plan-save';

/** SPEC §2 "Chapter management (/chapters)": editable titles and flags, delete, add, links, save. */
export function ChaptersPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: chapterKeys.all, queryFn: fetchChapters });
  const [rows, setRows] = useState<ChapterRow[]>([]);
  const [deleted, setDeleted] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (query.data) {
      setRows(query.data.map(rowOf));
      setDeleted([]);
    }
  }, [query.data]);

  const title = <Title order={1}>Gestion des chapitres</Title>;
  if (query.isPending) {
    return (
      <Stack>
        {title}
        <Center py="xl">
          <Loader role="status" aria-label="Chargement des chapitres" />
        </Center>
      </Stack>
    );
  }

  function update(key: string, changes: Partial<ChapterRow>) {
    setRows((current) => current.map((r) => (r.key === key ? { ...r, ...changes } : r)));
  }
  function remove(row: ChapterRow) {
    setRows((current) => current.filter((r) => r.key !== row.key));
    if (row._id) setDeleted((current) => [...current, row._id!]);
  }
  function add() {
    setRows((current) => [
      ...current,
      { key: `new-${Date.now()}-${current.length}`, title: NEW_CHAPTER_TITLE, analysis: false, offline: false },
    ]);
  }

  async function save() {
    const plan = planChapterSave(rows, deleted);
    if ('error' in plan) {
      showNotice(`Erreur : ${plan.error}`, 'red');
      return;
    }
    setSaving(true);
    // SPEC §7: deletions first, then creations and updates, then the list reloads. Calls are
    // quiet; one notification tells the outcome.
    try {
      await runChapterSave(plan, {
        remove: (id) => deleteChapter(id, true),
        create: (fields) => createChapter(fields, true),
        update: (id, changes) => updateChapter(id, changes, true),
      });
      showNotice('Modifications enregistrées', 'green');
    } catch (error) {
      notifyError(error);
      console.error(error);
    } finally {
      setSaving(false);
      await queryClient.invalidateQueries({ queryKey: chapterKeys.all });
      // The sidebar's test lists come from the session.
      await session.reload();
    }
  }

  return (
    <Stack>
      {title}
      {query.isError && <Text>Impossible de charger les chapitres.</Text>}
      <Table striped aria-label="Chapitres">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Titre</Table.Th>
            <Table.Th w={90}>Papier</Table.Th>
            <Table.Th w={140}>Notes publiées</Table.Th>
            <Table.Th w={300}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={4}>Aucun chapitre.</Table.Td>
            </Table.Tr>
          )}
          {rows.map((row) => {
            const name = row.saved?.title ?? `${row.title} (nouveau)`;
            return (
              <Table.Tr key={row.key}>
                <Table.Td>
                  <TextInput
                    aria-label={`Titre du chapitre ${name}`}
                    value={row.title}
                    onChange={(e) => update(row.key, { title: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Papier : ${name}`}
                    checked={row.offline}
                    onChange={(e) => update(row.key, { offline: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <Checkbox
                    aria-label={`Notes publiées : ${name}`}
                    checked={row.analysis}
                    onChange={(e) => update(row.key, { analysis: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <Tooltip label="Supprimer">
                      <ActionIcon variant="subtle" color="red" aria-label={`Supprimer le chapitre ${name}`} onClick={() => remove(row)}>
                        <IconTrash size={18} aria-hidden="true" />
                      </ActionIcon>
                    </Tooltip>
                    {row._id ? (
                      <>
                        <Anchor component={Link} to={paths.exos(row._id)} aria-label={`Exercices du chapitre ${name}`}>
                          Exercices
                        </Anchor>
                        <Anchor component={Link} to={paths.access(row._id)} aria-label={`Accès au chapitre ${name}`}>
                          Accès
                        </Anchor>
                        <Anchor component={Link} to={paths.analysis(row._id)} aria-label={`Analyse de la triche du chapitre ${name}`}>
                          Analyse
                        </Anchor>
                        <Anchor component={Link} to={paths.live(row._id)} aria-label={`Suivi en direct du chapitre ${name}`}>
                          Direct
                        </Anchor>
                      </>
                    ) : (
                      <Text size="sm" c="gray.7">
                        À enregistrer
                      </Text>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Group>
        <Button variant="default" onClick={add}>
          Ajouter un chapitre
        </Button>
        <Button onClick={save} loading={saving}>
          Enregistrer
        </Button>
      </Group>
    </Stack>
  );
}
