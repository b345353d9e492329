import { Button, Center, Group, Loader, Stack, Table } from '@mantine/core';
import { NEW_GROUP_NAME } from '@olympe/contract';
import { createGroup, deleteGroup, groupKeys, renameGroup, useMyGroups } from '../../api/groups';
import { useEditableTable } from '../../hooks/use-editable-table';
import { useSession } from '../../session/session-context';
import { planGroupSave, type GroupRow, type GroupSavePlan } from './plan-save';
import { PageHeading } from '../../components/page-heading';
import { useState } from 'react';
import { DeleteGroupDialog } from './delete-group-dialog';
import { GroupLine } from './group-line';

/**
 * docs/product.md#spec-7 order (as for chapters): deletions first, then creations and renames, then reload.
 * Each call is quiet; one notification tells the outcome.
 */
async function runGroupPlan(plan: GroupSavePlan) {
  for (const g of plan.deletes) await deleteGroup(g._id, true);
  for (const name of plan.creates) await createGroup({ name }, true);
  for (const r of plan.renames) await renameGroup(r._id, r.name, true);
}

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
      run: runGroupPlan,
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
          {rows.map((row) => (
            <GroupLine
              key={row.key}
              row={row}
              onRename={(name) => update(row.key, { name })}
              onDelete={() => (row._id ? setDeleting(row) : remove(row))}
            />
          ))}
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
      <DeleteGroupDialog
        deleting={deleting}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove(deleting);
          setDeleting(null);
        }}
      />
    </Stack>
  );
}
