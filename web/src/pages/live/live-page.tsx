import { Alert, Badge, Box, Center, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { formatParisDateTime } from '@olympe/contract';
import { useLiveChapter } from '../../api/ops';
import { ExtensionsSection } from './extensions-section';
import { LIVE_REFRESH_MS, liveFigures, minuteLabels } from './live';
import { PageHeading } from '../../components/page-heading';

/** docs/operations.md "Watching the big day": an admin follows a running chapter, refreshed every 5 s (admins only: routes.tsx). */
export function LivePage() {
  const { id = '' } = useParams();
  const query = useLiveChapter(id, LIVE_REFRESH_MS);

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label="Chargement des chiffres en direct" />
      </Center>
    );
  }
  if (!query.data) return <Alert color="red">Les chiffres de ce chapitre sont indisponibles.</Alert>;

  const live = query.data;
  const peak = Math.max(1, ...live.savesPerMinute);
  const labels = minuteLabels(live.savesPerMinute.length);
  return (
    <Stack>
      <Group justify="space-between" align="baseline">
        <PageHeading>En direct : {live.title}</PageHeading>
        <Text size="sm" c="gray.8" aria-live="polite">
          Mis à jour le {formatParisDateTime(live.at)}
          {query.isError ? ' (dernière actualisation échouée)' : ''}
        </Text>
      </Group>

      <SimpleGrid cols={{ base: 2, sm: 3 }}>
        {liveFigures(live).map((f) => (
          <Paper key={f.label} withBorder p="md" role="group" aria-label={f.label}>
            <Text size="sm" c="gray.8">
              {f.label}
            </Text>
            <Group gap="xs" align="baseline">
              <Text fz={32} fw={700}>
                {f.value}
              </Text>
              {f.alert && <Badge color="red">à surveiller</Badge>}
            </Group>
            {f.hint && (
              <Text size="xs" c="gray.8">
                {f.hint}
              </Text>
            )}
          </Paper>
        ))}
      </SimpleGrid>

      <Title order={2} size="h3">
        Réponses enregistrées par minute
      </Title>
      <Group gap={4} align="flex-end" h={120} aria-hidden="true">
        {live.savesPerMinute.map((n, i) => (
          <Box key={labels[i]} w={18} h={`${Math.round((n / peak) * 100)}%`} mih={2} bg="blue.7" title={`${labels[i]} : ${n}`} />
        ))}
      </Group>
      {/* The same figures as a table for screen readers and keyboard users. */}
      <Table captionSide="top" withTableBorder>
        <Table.Caption>Réponses enregistrées par minute, de la plus ancienne à la minute en cours</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Minute</Table.Th>
            <Table.Th scope="col">Réponses</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {live.savesPerMinute.map((n, i) => (
            <Table.Tr key={labels[i]}>
              <Table.Td>{labels[i]}</Table.Td>
              <Table.Td>{n}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ExtensionsSection chapterId={id} extensions={live.extensions} />
    </Stack>
  );
}
