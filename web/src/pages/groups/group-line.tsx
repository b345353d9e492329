import { ActionIcon, Anchor, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { SYSTEM_GROUP_NAMES } from '@olympe/contract';
import { paths } from '../../config/paths';
import type { GroupRow } from './plan-save';

/** One group of the table: its name (read-only for a system group), its members' link, its deletion. */
export function GroupLine({ row, onRename, onDelete }: { row: GroupRow; onRename: (name: string) => void; onDelete: () => void }) {
  const system = isSystem(row);
  return (
    <Table.Tr>
      <Table.Td>
        <TextInput
          aria-label={`Nom du groupe ${row.savedName ?? '(nouveau)'}`}
          value={row.name}
          readOnly={system}
          description={system ? 'Groupe du système : ni renommé ni supprimé.' : undefined}
          onChange={(e) => onRename(e.currentTarget.value)}
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
          <ActionIcon variant="subtle" color="red" aria-label={`Supprimer le groupe ${row.name}`} disabled={system} onClick={onDelete}>
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Table.Td>
    </Table.Tr>
  );
}

/** teachers and members: their names are reserved, so the saved name tells them apart. */
function isSystem(row: GroupRow): boolean {
  return (SYSTEM_GROUP_NAMES as readonly string[]).includes(row.savedName ?? '');
}
