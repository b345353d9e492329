import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { formatParisDateTime, type SelectionSummary } from '@olympe/contract';
import { Link } from 'react-router';
import { useSelections } from '../../api/selections';
import { LoginRedirect } from '../../components/login-gate';
import { PageHeading } from '../../components/page-heading';
import { TitledLoader } from '../../components/TitledLoader';
import { paths } from '../../config/paths';
import { useSession } from '../../session/session-context';
import { loadErrorText } from './load-error';

const TITLE = 'Sélections';

function publicationBadge(s: SelectionSummary) {
  if (s.published) return <Badge color="teal.9">Publiée</Badge>;
  if (s.publishAt) return <Text size="sm">Programmée le {formatParisDateTime(s.publishAt)}</Text>;
  return <Text size="sm">Non publiée</Text>;
}

/**
 * The selections the caller sees (docs/product.md#selections): every one for an admin, those of their juries for a
 * jury member; anyone else reads the server's refusal.
 */
export function SelectionsPage() {
  const { token, roles } = useSession();
  const query = useSelections();
  if (!token) return <LoginRedirect />;
  if (query.isPending) return <TitledLoader title={TITLE} label="Chargement des sélections" />;
  return (
    <Stack>
      <PageHeading>{TITLE}</PageHeading>
      {roles.isAdmin && (
        <Button component={Link} to={paths.selectionNew} w="fit-content">
          Nouvelle sélection
        </Button>
      )}
      {query.isError ? (
        <Alert color="red">{loadErrorText(query.error)}</Alert>
      ) : query.data.length === 0 ? (
        <Text c="gray.8">Aucune sélection pour le moment.</Text>
      ) : (
        // Focusable so the keyboard can scroll it on a phone (axe: scrollable-region-focusable, decision 104).
        <Table.ScrollContainer
          minWidth={480}
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Sélections (défilement)' } }}
        >
          <Table striped aria-label="Sélections">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Sélection</Table.Th>
                <Table.Th>Publication</Table.Th>
                <Table.Th>Versions gelées</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.map((s) => (
                <Table.Tr key={s._id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Anchor component={Link} to={paths.selection(s._id)}>
                        {s.title}
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td>{publicationBadge(s)}</Table.Td>
                  <Table.Td>{s.versions}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
