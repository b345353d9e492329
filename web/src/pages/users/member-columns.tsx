import { useMemo } from 'react';
import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import type { GroupMember } from '@olympe/contract';
import type { VirtualColumn } from '../../components/VirtualTable';
import { showNotice } from '../../api/notify';
import { extraTimeLabel } from './extra-time-dialog';
import { formatBirthDate, GENDER_SHORT, gradeLabel, yesNo } from './members';

// Stable functions: the table caches sort keys per function (fast re-sorts while searching).
export const byFirstName = (m: GroupMember) => m.firstName;
export const byLastName = (m: GroupMember) => m.lastName;

/** A member's name for titles, or their e-mail when they gave none. */
export const memberName = (m: GroupMember | null) => (m ? `${m.firstName ?? ''} ${m.lastName ?? ''}`.trim() || m.email : '');

/** Copies the shown members' addresses, and says how many (or that the browser refused). */
async function copyEmails(shown: readonly GroupMember[]) {
  const text = shown.map((m) => m.email).join(', ');
  try {
    await navigator.clipboard.writeText(text);
    showNotice(`${shown.length} adresse${shown.length > 1 ? 's' : ''} copiée${shown.length > 1 ? 's' : ''}.`, 'green');
  } catch {
    showNotice('Erreur : la copie dans le presse-papiers a été refusée par le navigateur.', 'red');
  }
}

interface MemberActions {
  onSimulate: (member: GroupMember) => void;
  onData: (member: GroupMember) => void;
  onExtraTime: (member: GroupMember) => void;
}

function ActionsCell({ member: m, onSimulate, onData }: { member: GroupMember } & Omit<MemberActions, 'onExtraTime'>) {
  if (m.isAdmin) {
    return (
      <Text size="xs" c="gray.7">
        Administrateur
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <Button
        size="compact-xs"
        variant="light"
        onClick={() => onSimulate(m)}
        aria-label={`Simuler ${m.firstName ?? ''} ${m.lastName ?? ''} (${m.email})`}
      >
        Simuler
      </Button>
      <Button
        size="compact-xs"
        variant="default"
        onClick={() => onData(m)}
        aria-label={`Données personnelles de ${m.firstName ?? ''} ${m.lastName ?? ''} (${m.email})`}
      >
        Données
      </Button>
    </Group>
  );
}

/** The members table's columns; rebuilt with the shown rows, so the copy button copies what is shown. */
export function useMemberColumns(shown: readonly GroupMember[], { onSimulate, onData, onExtraTime }: MemberActions) {
  return useMemo<VirtualColumn<GroupMember>[]>(
    () => [
      {
        key: 'firstName',
        header: 'Prénom',
        width: '12%',
        cell: (m) => m.firstName,
        sortValue: byFirstName,
        fullText: (m) => m.firstName ?? '',
      },
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
              <ActionIcon variant="subtle" size="sm" aria-label="Copier toutes les adresses affichées" onClick={() => copyEmails(shown)}>
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
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => onExtraTime(m)}
            aria-label={`Temps supplémentaire de ${memberName(m)} : ${extraTimeLabel(m.extraTimePercent)}`}
          >
            {extraTimeLabel(m.extraTimePercent)}
          </Button>
        ),
      },
      { key: 'actions', header: 'Actions', width: 170, cell: (m) => <ActionsCell member={m} onSimulate={onSimulate} onData={onData} /> },
    ],
    // The handlers are the page's state setters and a stable callback: the shown rows alone rebuild the columns.
    [shown],
  );
}
