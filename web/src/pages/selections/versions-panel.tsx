import { useState } from 'react';
import { Alert, Group, List, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { formatParisDateTime, formatPoints, type Board, type Selection } from '@olympe/contract';
import { useVersionChanges } from '../../api/selections';

const statusWord = (qualified: boolean) => (qualified ? 'sélectionné(e)' : 'non sélectionné(e)');

/** The drift (decision 157): since the latest version, pupils whose status its settings would change on today’s grades. */
export function DriftPanel({ selection, board }: { selection: Selection; board: Board }) {
  if (board.drift.length === 0) return null;
  const latest = selection.versions.at(-1)?.number ?? 0;
  const names = new Map(selection.categories.map((c) => [c._id, c.name]));
  const n = board.drift.length;
  return (
    <Alert color="orange" title={`Depuis la version ${latest}, ${n} élève${n > 1 ? 's' : ''} changerai${n > 1 ? 'en' : ''}t de statut`}>
      <Stack gap="xs">
        <Text size="sm">
          Des notes ont changé depuis le gel. La version publiée reste celle-ci : gelez une nouvelle version pour en tenir compte.
        </Text>
        <List size="sm">
          {board.drift.map((d) => (
            <List.Item key={`${d.categoryId}:${d.key}`}>
              {board.names?.[board.keys.indexOf(d.key)] ?? d.key} ({names.get(d.categoryId) ?? 'catégorie inconnue'},{' '}
              {formatPoints(d.score)} points) : {statusWord(d.was)} → {statusWord(d.now)}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Alert>
  );
}

/** Each frozen version (who, when, why, how many qualified) and who changed status between two of them. */
export function VersionsPanel({ selection }: { selection: Selection }) {
  const versions = selection.versions;
  const last = versions.at(-1)?.number ?? 0;
  const [pair, setPair] = useState<{ n: number; from: number }>({ n: last, from: Math.max(0, last - 1) });
  if (versions.length === 0) return <Text c="gray.8">Aucune version gelée pour le moment.</Text>;
  const options = versions.map((v) => ({ value: String(v.number), label: `Version ${v.number}` }));
  return (
    <Stack>
      {/* Focusable so the keyboard can scroll it on a phone (axe: scrollable-region-focusable, decision 104). */}
      <Table.ScrollContainer
        minWidth={600}
        scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Versions gelées (défilement)' } }}
      >
        <Table striped aria-label="Versions gelées">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Version</Table.Th>
              <Table.Th>Gelée par</Table.Th>
              <Table.Th>Le</Table.Th>
              <Table.Th>Motif</Table.Th>
              <Table.Th>Qualifiés / participants</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {versions.map((v) => (
              <Table.Tr key={v.number}>
                <Table.Td>{v.number}</Table.Td>
                <Table.Td>{v.frozenBy}</Table.Td>
                <Table.Td>{formatParisDateTime(v.frozenAt)}</Table.Td>
                <Table.Td>{v.reason || '—'}</Table.Td>
                <Table.Td>
                  {v.qualified} / {v.participants}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {versions.length > 1 && (
        <>
          <Title order={3}>Changements entre deux versions</Title>
          <Group>
            <Select
              label="Version"
              data={options}
              value={String(pair.n)}
              onChange={(v) => v && setPair((p) => ({ ...p, n: Number(v) }))}
              allowDeselect={false}
            />
            <Select
              label="Comparée à la version"
              data={options}
              value={String(pair.from)}
              onChange={(v) => v && setPair((p) => ({ ...p, from: Number(v) }))}
              allowDeselect={false}
            />
          </Group>
          <VersionChanges selection={selection} n={pair.n} from={pair.from} />
        </>
      )}
    </Stack>
  );
}

function VersionChanges({ selection, n, from }: { selection: Selection; n: number; from: number }) {
  const changes = useVersionChanges(selection._id, n, from);
  if (n === from) return <Text c="gray.8">Choisissez deux versions différentes.</Text>;
  if (changes.isPending) return <Loader size="sm" aria-label="Chargement des changements" />;
  if (changes.isError) return <Alert color="red">Les changements n’ont pas pu être chargés.</Alert>;
  if (changes.data.length === 0) return <Text>Aucun élève n’a changé de statut entre ces deux versions.</Text>;
  const names = new Map(selection.categories.map((c) => [c._id, c.name]));
  return (
    <List size="sm" aria-label={`Changements de la version ${from} à la version ${n}`}>
      {changes.data.map((c) => (
        <List.Item key={`${c.categoryId}:${c.key}`}>
          {c.name ?? c.key} ({names.get(c.categoryId) ?? 'catégorie inconnue'}) : {statusWord(c.before)} → {statusWord(c.after)}
        </List.Item>
      ))}
    </List>
  );
}
