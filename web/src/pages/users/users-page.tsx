import { useDeferredValue, useMemo, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { UserDataActions } from '../privacy/user-data-actions';
import { ExtraTimeDialog } from './extra-time-dialog';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { GroupMember } from '@olympe/contract';
import { groupKeys, useGroup } from '../../api/groups';
import { sortRows, VirtualTable } from '../../components/VirtualTable';
import { useImpersonation } from '../../hooks/use-impersonation';
import { downloadCsv } from '../../lib/csv';
import { buildSearchIndex, filterMembers, memberCsvFileName, memberCsvRows } from './members';
import { byLastName, memberName, useMemberColumns } from './member-columns';
import { MemberEmailList } from './member-email-list';
import { PageHeading } from '../../components/page-heading';

/** docs/product.md#spec-9: the members table is the window height minus 250 px. */
const TABLE_HEIGHT = 'max(320px, calc(100vh - 250px))';

/** docs/product.md#spec-2 "Group members (/users/{id})": search, table, CSV, e-mail list, "Simuler". */
export function UsersPage() {
  const { id = '' } = useParams();
  const query = useGroup(id);

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement du groupe" />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Stack>
        <PageHeading>Gestion du groupe</PageHeading>
        <Alert color="red">Impossible de charger ce groupe.</Alert>
      </Stack>
    );
  }
  // Keyed by group: another group starts with a fresh search and e-mail list.
  return <GroupMembers key={query.data._id} groupId={id} name={query.data.name} members={query.data.members} />;
}

function GroupMembers({ groupId, name, members }: { groupId: string; name: string; members: GroupMember[] }) {
  const queryClient = useQueryClient();
  const { start } = useImpersonation();
  // The member whose personal data (export, anonymisation) the admin is handling.
  const [dataOf, setDataOf] = useState<GroupMember | null>(null);
  // The member whose extra time (tiers-temps) the admin is setting.
  const [extraOf, setExtraOf] = useState<GroupMember | null>(null);
  const [search, setSearch] = useState('');
  // Typing stays responsive over 10,000 rows: the table follows the deferred value.
  const deferredSearch = useDeferredValue(search);
  const index = useMemo(() => buildSearchIndex(members), [members]);
  const shown = useMemo(() => filterMembers(members, index, deferredSearch), [members, index, deferredSearch]);
  const savedEmails = useMemo(() => members.map((m) => m.email), [members]);
  const reloadGroup = () => void queryClient.invalidateQueries({ queryKey: groupKeys.detail(groupId) });

  async function simulate(member: GroupMember) {
    try {
      await start(member._id);
    } catch (error) {
      // docs/product.md#spec-8: a failed logto is only logged (the client already showed the server's message).
      console.error(error);
    }
  }
  const columns = useMemberColumns(shown, { onSimulate: simulate, onData: setDataOf, onExtraTime: setExtraOf });

  return (
    <Stack gap="sm">
      <PageHeading>Gestion du groupe {name}</PageHeading>
      <MemberDataDialog
        member={dataOf}
        onClose={() => setDataOf(null)}
        onAnonymised={() => {
          setDataOf(null);
          reloadGroup();
        }}
      />
      {extraOf && (
        <ExtraTimeDialog
          uid={extraOf._id}
          name={memberName(extraOf)}
          percent={extraOf.extraTimePercent ?? 0}
          onClose={() => setExtraOf(null)}
          onSaved={() => {
            setExtraOf(null);
            reloadGroup();
          }}
        />
      )}
      <MembersToolbar name={name} search={search} onSearch={setSearch} shown={shown} total={members.length} />

      <VirtualTable
        label={`Membres du groupe ${name}`}
        rows={shown}
        columns={columns}
        rowKey={(m) => m._id}
        height={TABLE_HEIGHT}
        // 630 px of fixed columns: below this width the table scrolls sideways rather than giving the names and
        // e-mails no room at all (0 px at 375 px, found by the cut-label check of the groups journey).
        minWidth={960}
        initialSort={{ key: 'lastName', direction: 'asc' }}
        emptyText={members.length === 0 ? 'Ce groupe n’a aucun membre.' : 'Aucun membre ne correspond à la recherche.'}
      />

      <MemberEmailList groupId={groupId} savedEmails={savedEmails} />
    </Stack>
  );
}

/** The search over first name, last name and e-mail, how many members it keeps, and their CSV. */
function MembersToolbar(props: { name: string; search: string; onSearch: (search: string) => void; shown: GroupMember[]; total: number }) {
  const { name, search, onSearch, shown, total } = props;
  return (
    <Group align="flex-end" wrap="wrap">
      <TextInput
        label="Rechercher"
        placeholder="Prénom, nom ou e-mail"
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
        w={320}
      />
      <Text aria-live="polite" fw={500}>
        {shown.length}/{total} membres
      </Text>
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
        onClick={() => downloadCsv(memberCsvFileName(name), memberCsvRows(sortRows(shown, byLastName, 'asc')))}
      >
        Exporter en CSV
      </Button>
    </Group>
  );
}

/** The admin's actions on one member's personal data (export, anonymisation). */
function MemberDataDialog({
  member,
  onClose,
  onAnonymised,
}: {
  member: GroupMember | null;
  onClose: () => void;
  onAnonymised: () => void;
}) {
  return (
    <Modal
      opened={member !== null}
      onClose={onClose}
      title={`Données personnelles de ${memberName(member)}`}
      closeButtonProps={{ 'aria-label': 'Fermer' }}
    >
      {member ? <UserDataActions uid={member._id} name={memberName(member)} onAnonymised={onAnonymised} /> : null}
    </Modal>
  );
}
