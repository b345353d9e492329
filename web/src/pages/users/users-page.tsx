import { useDeferredValue, useMemo, useState } from 'react';
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text, Textarea, TextInput, Tooltip, ActionIcon } from '@mantine/core';
import { UserDataActions } from '../privacy/user-data-actions';
import { ExtraTimeDialog, extraTimeLabel } from './extra-time-dialog';
import { IconCopy, IconDownload, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { GroupMember } from '@olympe/contract';
import { isApiError } from '../../api/client';
import { groupKeys, useGroup, useSaveGroupMembers } from '../../api/groups';
import { showNotice } from '../../api/notify';
import { sortRows, VirtualTable, type VirtualColumn } from '../../components/VirtualTable';
import { useImpersonation } from '../../hooks/use-impersonation';
import { downloadCsv } from '../../lib/csv';
import {
  addEmails,
  buildSearchIndex,
  diffEmails,
  filterMembers,
  formatBirthDate,
  GENDER_SHORT,
  gradeLabel,
  memberCsvFileName,
  memberCsvRows,
  removeEmails,
  yesNo,
} from './members';
import { PageHeading } from '../../components/page-heading';

// Stable functions: the table caches sort keys per function (fast re-sorts while searching).
const byFirstName = (m: GroupMember) => m.firstName;
const byLastName = (m: GroupMember) => m.lastName;

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

/** A member's name for titles, or their e-mail when they gave none. */
const memberName = (m: GroupMember | null) => (m ? `${m.firstName ?? ''} ${m.lastName ?? ''}`.trim() || m.email : '');

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
  const [pending, setPending] = useState<string[] | null>(null);
  const [emailInput, setEmailInput] = useState('');
  const [unknown, setUnknown] = useState<string[]>([]);
  const saveMembers = useSaveGroupMembers(groupId);
  const list = pending ?? savedEmails;
  const changes = useMemo(() => diffEmails(savedEmails, list), [savedEmails, list]);
  const dirty = changes.added.length + changes.removed.length > 0;

  async function copyEmails() {
    const text = shown.map((m) => m.email).join(', ');
    try {
      await navigator.clipboard.writeText(text);
      showNotice(`${shown.length} adresse${shown.length > 1 ? 's' : ''} copiée${shown.length > 1 ? 's' : ''}.`, 'green');
    } catch {
      showNotice('Erreur : la copie dans le presse-papiers a été refusée par le navigateur.', 'red');
    }
  }

  async function simulate(member: GroupMember) {
    try {
      await start(member._id);
    } catch (error) {
      // docs/product.md#spec-8: a failed logto is only logged (the client already showed the server's message).
      console.error(error);
    }
  }

  function save() {
    saveMembers.mutate(list, {
      onSuccess: () => {
        setPending(null);
        setUnknown([]);
      },
      onError: (error) => {
        // Unknown e-mails come back by name: they go into the input, ready for "Retirer".
        const data = isApiError(error) ? (error.response?.data as { unknown?: string[] } | undefined) : undefined;
        if (data?.unknown?.length) {
          setUnknown(data.unknown);
          setEmailInput(data.unknown.join('\n'));
        }
        console.error(error);
      },
    });
  }

  const columns = useMemo<VirtualColumn<GroupMember>[]>(
    () => [
      { key: 'firstName', header: 'Prénom', width: '12%', cell: (m) => m.firstName, sortValue: byFirstName, fullText: (m) => m.firstName ?? '' },
      { key: 'lastName', header: 'Nom', width: '14%', cell: (m) => m.lastName, sortValue: byLastName, fullText: (m) => m.lastName ?? '' },
      { key: 'grade', header: 'Classe', width: 70, cell: (m) => gradeLabel(m.grade) },
      { key: 'gender', header: 'Genre', width: 64, cell: (m) => (m.gender ? GENDER_SHORT[m.gender] : '') },
      {
        // The e-mail takes what the other columns leave; it wraps (two lines, full text on hover) rather than being cut.
        key: 'email',
        header: (
          <Group gap={4} wrap="nowrap">
            E-mail
            <Tooltip label="Copier toutes les adresses affichées">
              <ActionIcon variant="subtle" size="sm" aria-label="Copier toutes les adresses affichées" onClick={copyEmails}>
                <IconCopy size={16} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
        cell: (m) => m.email,
        fullText: (m) => m.email,
      },
      { key: 'birthDate', header: 'Date de naissance', width: 110, cell: (m) => formatBirthDate(m.birthDate) },
      { key: 'notifications', header: 'Notifications', width: 116, cell: (m) => yesNo(m.emailNotifications) },
      {
        key: 'extraTime',
        header: 'Tiers-temps',
        width: 100,
        cell: (m) => (
          <Button size="compact-xs" variant="subtle" onClick={() => setExtraOf(m)} aria-label={`Temps supplémentaire de ${memberName(m)} : ${extraTimeLabel(m.extraTimePercent)}`}>
            {extraTimeLabel(m.extraTimePercent)}
          </Button>
        ),
      },
      {
        key: 'actions',
        header: 'Actions',
        width: 170,
        cell: (m) =>
          m.isAdmin ? (
            <Text size="xs" c="gray.7">
              Administrateur
            </Text>
          ) : (
            <Group gap={6} wrap="nowrap">
              <Button size="compact-xs" variant="light" onClick={() => simulate(m)} aria-label={`Simuler ${m.firstName ?? ''} ${m.lastName ?? ''} (${m.email})`}>
                Simuler
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => setDataOf(m)} aria-label={`Données personnelles de ${m.firstName ?? ''} ${m.lastName ?? ''} (${m.email})`}>
                Données
              </Button>
            </Group>
          ),
      },
    ],
    // Rebuilt with the shown rows: the copy button copies what is shown.
    [shown],
  );

  return (
    <Stack gap="sm">
      <PageHeading>Gestion du groupe {name}</PageHeading>
      <Modal
        opened={dataOf !== null}
        onClose={() => setDataOf(null)}
        title={`Données personnelles de ${memberName(dataOf)}`}
        closeButtonProps={{ 'aria-label': 'Fermer' }}
      >
        {dataOf ? (
          <UserDataActions
            uid={dataOf._id}
            name={memberName(dataOf)}
            onAnonymised={() => {
              setDataOf(null);
              void queryClient.invalidateQueries({ queryKey: groupKeys.detail(groupId) });
            }}
          />
        ) : null}
      </Modal>
      {extraOf && (
        <ExtraTimeDialog
          uid={extraOf._id}
          name={memberName(extraOf)}
          percent={extraOf.extraTimePercent ?? 0}
          onClose={() => setExtraOf(null)}
          onSaved={() => {
            setExtraOf(null);
            void queryClient.invalidateQueries({ queryKey: groupKeys.detail(groupId) });
          }}
        />
      )}
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="Rechercher"
          placeholder="Prénom, nom ou e-mail"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={320}
        />
        <Text aria-live="polite" fw={500}>
          {shown.length}/{members.length} membres
        </Text>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          onClick={() => downloadCsv(memberCsvFileName(name), memberCsvRows(sortRows(shown, byLastName, 'asc')))}
        >
          Exporter en CSV
        </Button>
      </Group>

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

      <Textarea
        label="Liste d’adresses e-mail"
        description="Séparées par des espaces, des virgules ou des points-virgules. « Ajouter » et « Retirer » préparent la liste ; « Enregistrer » l’applique au groupe."
        rows={3}
        resize="vertical"
        value={emailInput}
        onChange={(e) => setEmailInput(e.currentTarget.value)}
      />
      <Group>
        <Button
          variant="default"
          onClick={() => {
            setPending(addEmails(list, emailInput));
            setEmailInput('');
          }}
          disabled={!emailInput.trim()}
        >
          Ajouter
        </Button>
        <Button
          variant="default"
          onClick={() => {
            const next = removeEmails(list, emailInput);
            setPending(next);
            setUnknown((u) => u.filter((e) => next.includes(e)));
            setEmailInput('');
          }}
          disabled={!emailInput.trim()}
        >
          Retirer
        </Button>
        <Button onClick={save} loading={saveMembers.isPending} disabled={!dirty}>
          Enregistrer
        </Button>
        {dirty && (
          <Button
            variant="subtle"
            onClick={() => {
              setPending(null);
              setUnknown([]);
            }}
          >
            Annuler les changements
          </Button>
        )}
      </Group>
      {dirty && (
        <Alert color="blue" title="Changements non enregistrés">
          <Text size="sm">
            À ajouter ({changes.added.length}) : {changes.added.slice(0, 50).join(', ') || '—'}
            {changes.added.length > 50 ? '…' : ''}
          </Text>
          <Text size="sm">
            À retirer ({changes.removed.length}) : {changes.removed.slice(0, 50).join(', ') || '—'}
            {changes.removed.length > 50 ? '…' : ''}
          </Text>
        </Alert>
      )}
      {unknown.length > 0 && (
        <Alert color="red" title="Adresses inconnues">
          <Text size="sm">
            Ces adresses ne correspondent à aucun compte ; elles ont été placées dans la liste ci-dessus, cliquez sur
            « Retirer » puis « Enregistrer » : {unknown.join(', ')}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
