import { ActionIcon, Anchor, Button, Center, Group, Loader, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { NEW_GROUP_NAME, SYSTEM_GROUP_NAMES } from '@olympe/contract';
import { createGroup, deleteGroup, groupKeys, renameGroup, useMyGroups } from '../../api/groups';
import { paths } from '../../config/paths';
import { useEditableTable } from '../../hooks/use-editable-table';
import { useSession } from '../../session/session-context';
import { planGroupSave, type GroupRow } from './plan-save';
import { PageHeading } from '../../components/page-heading';
import { useGroupImpact } from '../../api/results';
import { ConfirmDialog, countOf } from '../../components/confirm-dialog';
import { useState } from 'react';

/** docs/product.md#spec-2 "Groups (/groups)": editable names, delete per row, add, link to members, save. */
export function GroupsPage() {
  const session = useSession();
  const query = useMyGroups();
  const { rows, update, remove, add, save, saving } = useEditableTable({
    data: query.data,
    toRows: (groups) => groups.map((g): GroupRow => ({ key: g._id, _id: g._id, name: g.name, savedName: g.name })),
    deletedOf: (row) => (row._id ? { _id: row._id, name: row.savedName ?? row.name } : undefined),
  });

  // Decision 69: a saved group's deletion is confirmed with its number of members.
  const [deleting, setDeleting] = useState<GroupRow | null>(null);
  const impact = useGroupImpact(deleting?._id ?? null);

  // The loader alone: the title comes with the table (the other table pages show it above the loader).
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement des groupes" />
      </Center>
    );
  }

  const saveGroups = () =>
    save({
      plan: planGroupSave,
      // docs/product.md#spec-7 order (as for chapters): deletions first, then creations and renames, then reload.
      // Each call is quiet; one notification tells the outcome.
      run: async (plan) => {
        for (const g of plan.deletes) await deleteGroup(g._id, true);
        for (const name of plan.creates) await createGroup({ name }, true);
        for (const r of plan.renames) await renameGroup(r._id, r.name, true);
      },
      queryKey: groupKeys.all,
      after: () => session.reload(),
    });

  return (
    <Stack>
      <PageHeading>Gestion des groupes</PageHeading>
      <Table striped aria-label="Groupes" maw={760}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Nom</Table.Th>
            <Table.Th w={120}>Membres</Table.Th>
            <Table.Th w={110}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={3}>Aucun groupe.</Table.Td>
            </Table.Tr>
          )}
          {rows.map((row) => {
            const system = isSystem(row);
            return (
              <Table.Tr key={row.key}>
                <Table.Td>
                  <TextInput
                    aria-label={`Nom du groupe ${row.savedName ?? '(nouveau)'}`}
                    value={row.name}
                    readOnly={system}
                    description={system ? 'Groupe du système : ni renommé ni supprimé.' : undefined}
                    onChange={(e) => update(row.key, { name: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  {row._id ? (
                    <Anchor component={Link} to={paths.users(row._id)} aria-label={`Membres du groupe ${row.savedName}`}>
                      Membres
                    </Anchor>
                  ) : (
                    <Text size="sm" c="gray.7">
                      À enregistrer
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Tooltip label={system ? 'Ce groupe ne peut pas être supprimé' : 'Supprimer'}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Supprimer le groupe ${row.name}`}
                      disabled={system}
                      onClick={() => (row._id ? setDeleting(row) : remove(row))}
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
      <Group>
        <Button variant="default" onClick={() => add({ key: `new-${Date.now()}-${rows.length}`, name: NEW_GROUP_NAME })}>
          Ajouter un groupe
        </Button>
        <Button onClick={saveGroups} loading={saving}>
          Enregistrer
        </Button>
      </Group>
      <ConfirmDialog
        opened={deleting !== null}
        title="Supprimer ce groupe ?"
        message={
          deleting && impact.data
            ? `Le groupe « ${deleting.savedName ?? deleting.name} » sera supprimé à l’enregistrement : ${countOf(impact.data.members, 'membre')} ${impact.data.members > 1 ? 'le quittent' : 'le quitte'}. Les comptes, les copies et les notes restent.`
            : null
        }
        confirmLabel="Supprimer"
        danger
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove(deleting);
          setDeleting(null);
        }}
      />
    </Stack>
  );
}

/** teachers and members: their names are reserved, so the saved name tells them apart. */
function isSystem(row: GroupRow): boolean {
  return (SYSTEM_GROUP_NAMES as readonly string[]).includes(row.savedName ?? '');
}
